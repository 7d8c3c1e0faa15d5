//! Normalization for comparison: the comparison ladder of RFC 3987 §5.3 (RFC 3986 §6.2) as
//! separate rungs that can be combined freely ([`Rungs`]), with presets ([`Level`]).
//!
//! Two IRIs are equivalent at a rung when their normalized forms are identical strings
//! (§5.3.1). Every rung only applies an equivalence the RFCs state, so no rung can make two
//! different resources compare equal (§5.1: "strictly avoiding false positives"; §5 "never
//! loosen").
//!
//! ## Steps, in order
//!
//! 0. **Validation.** The line is validated by [`ToUri`] (not strict, percent-encoded hosts: no
//!    IDNA). Its error, if any, is returned as it is (offsets are in the line).
//! 1. **Parse** into components (RFC 3986 Appendix B, [`crate::grammar::components`]).
//! 2. **Scheme**: lower case if [`Rungs::case`] (§5.3.2.1).
//! 3. **Per component** (userinfo, host, path, query, fragment), never across delimiters:
//!    * [`Rungs::percent`] (§5.3.2.3): `%HH` of an unreserved character (RFC 3986 §2.3:
//!      `ALPHA DIGIT - . _ ~`) is decoded; every other `%HH` stays encoded — reserved
//!      characters, `%`, non-ASCII octets.
//!    * [`Rungs::case`] (§5.3.2.1): hex digits of every remaining `%HH` to upper case.
//!    * Output validity (always, not a rung): printable ASCII not allowed in IRIs (space `"` `<`
//!      `>` `\` `^` `` ` `` `{` `|` `}`) is percent-encoded and counted as a repair, as
//!      [`ToUri`] does; characters not allowed in IRIs (bidi formatting characters, §4.1;
//!      private use outside the query and non-`ucschar`, §2.2) are percent-encoded — the IRI→URI
//!      mapping writes them the same way, so no comparison changes — and counted as warnings.
//!    * [`Rungs::nfc`] / [`Rungs::nfkc`] (§5.3.2.2): see "Character normalization" below.
//! 4. **Host** (RFC 3986 §3.2.2), in this order: the component steps of 3 (without NFC), then
//!    NFC/NFKC, then [`Rungs::idn`], then [`Rungs::case`] (ASCII letters to lower case, hex
//!    digits of `%HH` to upper case). Character normalization comes first because it can make
//!    a host US-ASCII only (U+212A KELVIN SIGN is `K`), which IDN and case must then see as
//!    such; IDNA maps by NFC (UTS #46) or NFKC (Nameprep) itself, so its result is the same.
//!    * IP literals: lower case with [`Rungs::case`] (RFC 3986 §3.2.2: "the host subcomponent is
//!      case-insensitive"; RFC 5952 §4.3 recommends lower case for IPv6), nothing else.
//!    * ASCII letters of a reg-name are lowered only when the host is US-ASCII only
//!      (RFC 3987 §5.3.2.1): a host with non-ASCII characters, raw or as `%HH` of octets
//!      80–FF (3987bis §3.4.2), keeps its case at the syntax level (`http://RÉSUMÉ.example.org/`,
//!      `http://α.CoM/`); IDN equivalence belongs to [`Rungs::idn`] (issue #10).
//! 5. **Port**, with [`Rungs::scheme`] (§5.3.3): an empty port and its `:` are removed for
//!    every scheme (RFC 3986 §3.2.3: "should omit the port component and its ':' delimiter if
//!    port is empty"); for the schemes of [`DEFAULT_PORTS`], leading zeros are removed and the
//!    default port is removed.
//! 6. **Path**: [`Rungs::path`] (§5.3.2.4) applies `remove_dot_segments` (RFC 3986 §5.2.4) to
//!    paths that start with `/` (absolute paths, and every non-empty path after an authority).
//!    A segment that is `.` or `..` once its `%2E`s are decoded (`%2E%2E`, `.%2e`) is a dot
//!    segment too, without [`Rungs::percent`] as well (RFC 3986 §2.3, §6.2.2.2; the WHATWG URL
//!    parser reads it so): a literal `..` after it must not remove it as if it were a name.
//!    Rootless paths (`urn:a/../b`, `mailto:…`) and relative-path references (`../a`) are left
//!    alone: there `.`/`..` are data or depend on a base (and §5.2.4 would turn `a/../b` into
//!    `/b`). A result that starts with `//` without an authority gets a `/.` prefix (`foo:/.//a`),
//!    the same path, so that it does not read back as an authority. Then [`Rungs::scheme`]: an
//!    empty path after an authority becomes `/` for the schemes of [`DEFAULT_PORTS`].
//! 7. **Query and fragment**: only the component steps of 3. Empty `?` and `#` are kept
//!    (§5.3.3: `http://example.com/?` is not `http://example.com/`); the fragment is never
//!    subject to scheme-based rules.
//! 8. With [`NormalizeOptions::as_uri`], the result (the IRI form of step 9 when
//!    [`Rungs::percent`] is on, so that the URI form merges whatever the IRI form merges) goes
//!    through [`ToUri`]: hosts of [`DNS_SCHEMES`](crate::config::DNS_SCHEMES) are in ACE form
//!    as with [`Idn::Ascii`] (every such host, ASCII ones too: U+212A KELVIN SIGN, `K` and `k`
//!    must be one host once NFC and IDNA have both run), other non-ASCII hosts
//!    percent-encoded.
//! 9. **IRI form** (when [`Rungs::percent`] is on and the output is an IRI): the result is
//!    written as `to-iri` writes the URI it stands for — `to_iri(to_uri(·))` with hosts taken
//!    as they are. In an IRI, `iunreserved` includes `ucschar` (RFC 3987 §2.2), so decoding
//!    `%HH` of characters is the IRI reading of §5.3.2.3's "decode unreserved"; `to-iri`
//!    decodes exactly the characters it can display safely and keeps the others (white space,
//!    invisible characters, look-alikes of delimiters) percent-encoded, raw or not. Both
//!    functions are fixed by the round trip, so `rosé` and `ros%C3%A9` give the same output.
//!
//! ## The engine's shortcut
//!
//! Most lines of a crawl are ASCII and already normal. [`is_normal_ascii`] (and
//! [`is_normal_plain`], its form for lines the engine's classifier found free of the to-uri
//! flagged bytes) says so in one pass over the head and the path, without running steps 0–9;
//! it answers `true` only where the steps above pass the line through unchanged, and `false`
//! ("ask the normalizer") wherever it cannot tell: any `%`, `#`, `@`, `[`, `]`, an upper-case
//! scheme or host, an `xn--` host, a port or empty path the scheme rung changes, a dot segment.
//!
//! ## The one-pass IRI form (issue #11)
//!
//! Under `--level syntax` (the IRI form of step 9 with case, percent and path, no other rung:
//! `Normalizer::takes_quick_form`) most non-ASCII lines of a crawl are already in that form,
//! or need only step 9's decoding. `quick_crawl_line` proves it for a line of the crawl shape
//! without step 0's conversion, and `quick_iri_form` for any other line after step 0's scan
//! (`ToUri::validate_counted`): one pass (an AVX-512 kernel where the CPU has it, `clean_line`)
//! checks that every character is one to-iri writes as it is, every `%HH` is upper case and of
//! no unreserved character, and nothing else a step would change; the line is then given back
//! as it is, or as to-iri writes it when it holds `%HH` of non-ASCII octets. Everything else
//! runs steps 0–9. `Normalizer::new_full` is the twin that always runs them
//! (`tests/normalize_quick.rs`).
//!
//! ## IDN equivalence ([`Rungs::idn`], §5.3.3)
//!
//! Only hosts of [`DNS_SCHEMES`](crate::config::DNS_SCHEMES) are IDNs (scheme-based: other
//! schemes' reg-names are opaque, and `--host auto` percent-encodes them). Every host goes
//! through ToASCII (3987bis §3.4.2: `%HH` decoded first), ASCII ones too (UTS #46 maps ASCII
//! capitals, so `EX%41MPLE.com`, `exAmple.com` and `example.com` are one host whichever other
//! rungs ran first). If that fails, a host with non-ASCII characters fails the line with
//! `idna`, as in `to-uri`; an ASCII host is kept as it is. [`Idn::Ascii`] writes the ACE form
//! in lower case (IDNA2003 keeps the case of ASCII labels, RFC 3490 §4.1; case is not
//! significant in a DNS host, RFC 3986 §3.2.2). [`Idn::Unicode`] writes ToUnicode of the ACE
//! form put in lower case (Punycode keeps the case of basic code points, RFC 3492 Appendix A, so
//! `XN--BCHER-KVA` would give `BüCHER`) when every character is displayable
//! ([`super::to_iri::is_displayable`]) and ToASCII of it gives back the ACE form up to ASCII
//! case (the rule of `to-iri`), otherwise the lower-case ACE form. With
//! [`NormalizeOptions::as_uri`] hosts are always ACE.
//!
//! ## Character normalization ([`Rungs::nfc`], [`Rungs::nfkc`], §5.3.2.2)
//!
//! Opt-in: RFC 3987 §5.3.2.2 says equivalence "MUST rely on the assumption that IRIs are
//! appropriately pre-character-normalized rather than apply character normalization when
//! comparing". When asked for, NFC (or NFKC) is applied to each *run* of a component: a maximal
//! sequence of ASCII letters and digits and `iunreserved` non-ASCII characters (`ucschar`
//! allowed raw everywhere: no bidi formatting character), **raw or percent-encoded**: `%HH` of
//! the whole UTF-8 sequence of such a character is that character (§5.3.2.3), so
//! `re%CC%81sume%CC%81` and `re\u{301}sume\u{301}` hold the same runs and normalize alike
//! (issue #10). Runs end at every other ASCII character, at every `%HH` of ASCII or of a
//! character that is not `iunreserved` (private use, bidi formatting), and at such characters
//! raw, so a delimiter or a percent-encoded delimiter is never composed with anything (`=` +
//! U+0338 is not turned into `≠`). A run whose normalized form would contain anything else
//! than run characters (NFC maps U+037E to `;`, NFKC maps U+FF0F to `/`, U+2024 to `.`,
//! U+2474 to `(1)`) is not normalized by that form: NFKC falls back to NFKC of the pieces of
//! the run's NFC form between the characters NFKC would turn into such (kept as they are:
//! `ｂ！` is `b！`), or to NFC where that is not stable; NFC to the run as it is.
//! [`Rungs::nfkc`] wins over [`Rungs::nfc`].
//!
//! The **userinfo** is never character-normalized: it is a credential, which a server compares
//! byte for byte once percent-decoded (RFC 7617 §2: the user-id and password are sent as they
//! are), so NFC (`e\u{301}` → `é`) or NFKC (`Ⅸ` → `IX`) there would write another credential,
//! and README's host rule promises the userinfo a browser reads unchanged (found by a QA
//! sweep: `https://conferenⅨ@ces.org/` was written `https://conferenIX@ces.org/`).
//!
//! A run that the form leaves as it is is copied byte for byte. A run that changes is written
//! with its ASCII letters and digits raw, and its other characters raw when none of the run was
//! percent-encoded, else all percent-encoded (uppercase hex): character normalization never
//! decodes a character (what must stay encoded, such as look-alikes of delimiters, stays so;
//! decoding is [`Rungs::percent`]'s and step 9's), and a second pass finds the same run,
//! already normalized.
//!
//! ## Only merges, idempotence and stability
//!
//! Adding a rung or an option never splits two IRIs that fewer rungs made equal (§5.3: the
//! ladder trades false negatives for cost, never for false positives, and each rung is an
//! equivalence the RFCs state): if `N_R(a) == N_R(b)` then `N_S(a) == N_S(b)` for every `S`
//! holding `R` (or both are errors), with [`Rungs::nfkc`] above [`Rungs::nfc`] and
//! [`NormalizeOptions::as_uri`] above the IRI form. Every rung alone, and every combination,
//! is idempotent: `N(N(x)) == N(x)`. `tests/normalize_ladder.rs` checks both over every
//! combination of rungs and options, exhaustively on pairs of spellings of each piece (raw or
//! `%HH`, hex and letter case, composed or decomposed, compatibility forms, dot segments,
//! default ports, ACE or Unicode hosts) and on random IRIs spelled twice;
//! `tests/normalize.rs` checks idempotence on random IRIs too.
//!
//! The ladder's output is stable under `to-uri` then `to-iri`: for every combination, `to-uri`
//! accepts `N(x)` when it accepts `x`, and `to-iri` accepts what it writes; and
//! `N(to_iri(to_uri(N(x)))) == N(x)` whenever [`Rungs::percent`] and an IDN rung are on, as at
//! [`Level::Scheme`] (step 9 makes the IRI form the one `to-iri` writes; the IDN rung makes
//! hosts independent of `to-iri`'s ToUnicode). At [`Level::Syntax`] (no IDN rung),
//! `to-uri` maps non-ASCII hosts of DNS schemes through IDNA and `to-iri` decodes `xn--`
//! labels, which is the IDN rung's job, so hosts may change form there.
//!
//! ```
//! use iribulk::convert::normalize::{Level, NormalizeOptions, Normalizer, Rungs};
//! let mut n = Normalizer::new(NormalizeOptions {
//!     rungs: Rungs::level(Level::Scheme),
//!     ..NormalizeOptions::default()
//! });
//! let mut out = Vec::new();
//! n.convert_into("HTTP://Example.COM:80/a/./b/../%7euser/rosé?q#F".as_bytes(), &mut out)?;
//! assert_eq!(String::from_utf8(out).unwrap(), "http://example.com/a/~user/rosé?q#F");
//! # Ok::<(), iribulk::LineError>(())
//! ```

use crate::config::{is_dns_scheme, HostMode, ToUriOptions};
use crate::convert::integrity;
use crate::convert::to_iri::{is_displayable, ToIri, ToIriOptions};
use crate::convert::to_uri::{self, ToUri};
use crate::convert::Component;
use crate::convert::{Converter, Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::classes::{self, is_bidi_format, is_c1, is_iprivate, is_ucschar, HEX_UPPER};
use crate::grammar::components;
use crate::grammar::pct::{decode_utf8, push_pct, push_pct_all};
use crate::grammar::resolve::{decode_dot_segments_in_place, remove_dot_segments_in_place};
use crate::grammar::validate;
use crate::host::{self, HostCache, Idna};
use std::ops::Range;
use unicode_normalization::UnicodeNormalization;

/// Which rungs to apply (each independent; [`Level`] presets). `Default` is no rung at all
/// (simple string comparison, §5.3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rungs {
    /// §5.3.2.1: scheme and US-ASCII-only host to lower case; hex digits of `%HH` to upper case.
    pub case: bool,
    /// §5.3.2.3: decode `%HH` of unreserved characters (RFC 3986 §2.3) only.
    pub percent: bool,
    /// §5.3.2.2: NFC per run of a component (module docs).
    pub nfc: bool,
    /// §5.3.2.2: NFKC per run of a component; wins over [`Rungs::nfc`].
    pub nfkc: bool,
    /// §5.3.2.4: `remove_dot_segments` (RFC 3986 §5.2.4) on paths starting with `/`.
    pub path: bool,
    /// §5.3.3: empty port removed; for [`DEFAULT_PORTS`] schemes, the default port removed,
    /// leading zeros of the port removed, and an empty path after an authority made `/`.
    pub scheme: bool,
    /// §5.3.3 IDN equivalence: hosts of DNS schemes to ACE or to Unicode.
    pub idn: Option<Idn>,
}

/// The form of IDN hosts under [`Rungs::idn`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Idn {
    /// ASCII Compatible Encoding (`xn--rsum-bpad.example.org`).
    Ascii,
    /// Unicode (`résumé.example.org`), when it round-trips and displays safely; else ACE.
    Unicode,
}

/// Presets of the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Simple string comparison (§5.3.1): no rung.
    String,
    /// Syntax-based normalization (§5.3.2): case, percent-encoding and path segments. Character
    /// normalization (§5.3.2.2) is part of the RFC's list but is opt-in here ([`Rungs::nfc`]):
    /// the same section says comparison must *assume* normalized IRIs rather than normalize.
    Syntax,
    /// Scheme-based normalization (§5.3.3): [`Level::Syntax`] + [`Rungs::scheme`] + IDN
    /// equivalence to ACE.
    Scheme,
}

impl Rungs {
    /// The rungs of a preset.
    pub fn level(l: Level) -> Rungs {
        let syntax = Rungs {
            case: true,
            percent: true,
            path: true,
            ..Rungs::default()
        };
        match l {
            Level::String => Rungs::default(),
            Level::Syntax => syntax,
            Level::Scheme => Rungs {
                scheme: true,
                idn: Some(Idn::Ascii),
                ..syntax
            },
        }
    }
}

/// Options of the normalizer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NormalizeOptions {
    /// The rungs. Default [`Level::Syntax`].
    pub rungs: Rungs,
    /// Write the result as a URI (through [`ToUri`] at the end) instead of an IRI. Default
    /// `false`. This is the form §5.3.2.3 recommends for comparing percent-encodings: with it,
    /// `rosé` and `ros%C3%A9` compare equal.
    pub as_uri: bool,
    /// The IDNA of IDN equivalence and of `as_uri` hosts. Default [`Idna::Uts46`].
    pub idna: Idna,
}

impl Default for NormalizeOptions {
    fn default() -> Self {
        NormalizeOptions {
            rungs: Rungs::level(Level::Syntax),
            as_uri: false,
            idna: Idna::Uts46,
        }
    }
}

/// Schemes with scheme-based rules ([`Rungs::scheme`]): the default port, and "an empty path
/// after an authority is `/`" (RFC 9110 §4.2.1–§4.2.3 http/https, RFC 6455 §3 ws/wss,
/// RFC 1738 §3.2 ftp). Compared ASCII case-insensitively.
pub const DEFAULT_PORTS: &[(&str, &str)] = &[
    ("http", "80"),
    ("https", "443"),
    ("ws", "80"),
    ("wss", "443"),
    ("ftp", "21"),
];

/// The default port of `scheme` if it is in [`DEFAULT_PORTS`].
pub fn default_port(scheme: &[u8]) -> Option<&'static [u8]> {
    DEFAULT_PORTS
        .iter()
        .find(|(s, _)| s.as_bytes().eq_ignore_ascii_case(scheme))
        .map(|(_, p)| p.as_bytes())
}

/// The shortcut of the engine (issue #11): true only when [`Normalizer`] — run as the engine
/// runs it, inside [`crate::convert::repair::Repairing`] and the host-integrity
/// [`Guard`](crate::convert::integrity::Guard) — would pass `line` through with
/// `Outcome::default()` (no repair, no warning, no error) under `opts`, whatever the level,
/// rungs, [`NormalizeOptions::as_uri`] and [`NormalizeOptions::idna`]. `false` only means "ask
/// the converter". Its twin is the converter itself: `tests/normalize_shortcut.rs` checks
/// "true ⇒ pass-through with the default outcome" on every line of the data sets, the
/// synthetic sets, edge cases and random lines, for every combination of options.
///
/// It accepts only lines made of the URI characters that need no check of their placement
/// (RFC 3986 §2.2, §2.3: `ALPHA DIGIT - . _ ~`, the sub-delims, `:` `/` `?`; no `%`, `#`,
/// `@`, `[`, `]`, which is the complement of the engine's to-uri flagged set), which
/// [`integrity::quick_ok`] finds free of what the guard checks, and then
/// [`is_normal_plain`] (both asked by [`is_normal_unflagged`], which answers the common
/// shapes in one pass of 16-byte compares).
pub fn is_normal_ascii(line: &[u8], opts: &NormalizeOptions) -> bool {
    classes::plain_prefix_len(line) == line.len()
        && memchr::memchr(b'@', line).is_none()
        && is_normal_unflagged(line, opts)
}

/// [`is_normal_ascii`] for a line the engine's classifier found free of the to-uri flagged
/// bytes (`engine::lines::TO_URI_FLAGGED`: no `%`, `#`, `@`, `[`, `]`, controls, non-ASCII or
/// printable ASCII outside URIs) and that [`integrity::quick_ok`] accepts. Each step of the
/// module docs on such a line:
///
/// * 0: [`ToUri`] passes it through when
///   [`is_plain`](crate::grammar::validate::is_plain) holds (a scheme of RFC 3986 §3.1, a port
///   of digits, §3.2.3): the to-uri shortcut's own rule, found by its split.
/// * 2: with [`Rungs::case`], the scheme has no upper-case letter (RFC 3986 §3.1, §6.2.2.1).
/// * 3, 7: with no `%` and no character outside `unreserved / sub-delims / : / ? @`, the byte
///   steps write every component as it is (no `%HH` to decode or upper-case, §6.2.2.2, RFC 3987
///   §5.3.2.3; nothing to percent-encode, §3.1), and NFC/NFKC leave ASCII letters and digits
///   alone (§5.3.2.2). The query is never looked at.
/// * 4: no IP literal (no `[`). With [`Rungs::case`], the host has no upper-case letter
///   (RFC 3986 §3.2.2, RFC 3987 §5.3.2.1: an ASCII host is lowered). Where IDN equivalence
///   applies (a [`DNS_SCHEMES`](crate::config::DNS_SCHEMES) scheme with [`Rungs::idn`] or
///   [`NormalizeOptions::as_uri`]), the host is a lower-case LDH name (`is_ldh_host`: RFC 1034
///   §3.1, RFC 1123 §2.1, no `--`, so no `xn--` label), which ToASCII
///   leaves as it is in every IDNA here (UTS #46 §4.2 maps only ASCII capitals; RFC 3490 §4.1
///   skips Nameprep for ASCII labels) and ToUnicode has nothing to decode in. With the IRI
///   form of step 9 or [`NormalizeOptions::as_uri`], no `--` in the host at all: `to-iri`
///   decodes `xn--` labels (RFC 3987 §3.2, 3987bis §4.2 step 7).
/// * 5: with [`Rungs::scheme`], a port is not empty (RFC 3986 §3.2.3), and for the schemes of
///   [`DEFAULT_PORTS`] has no leading zero and is not the default port (RFC 3986 §6.2.3).
/// * 6: a path starting with `/` has no `.` or `..` segment when [`Rungs::path`] is on
///   (RFC 3986 §5.2.4, §6.2.2.3; with none, `remove_dot_segments` is the identity and no `//`
///   can start a path without an authority); neither has any path of a `file` URL (the guard's
///   `drive-letter-reference` looks at those). With [`Rungs::scheme`] and a scheme of
///   [`DEFAULT_PORTS`], the path after an authority is not empty (RFC 3986 §6.2.3).
/// * 8, 9: the finisher ([`ToUri`]) passes the unchanged line through (step 0), the presenter
///   ([`ToIri`]) too: no `%` and no `xn--` label.
///
/// Calling it on other lines is safe but may answer true wrongly; use [`is_normal_ascii`].
///
/// Not inlined: the engine's clean-line loop stays small for the other modes (inlined into
/// `Op::is_clean`, it cost to-uri 6 % more instructions on real data).
#[inline(never)]
pub fn is_normal_plain(line: &[u8], opts: &NormalizeOptions) -> bool {
    let Some(h) = validate::plain_head(line) else {
        return false;
    };
    let rungs = opts.rungs;
    let scheme = (h.rest > 0).then(|| &line[..h.rest - 1]);
    if rungs.case && scheme.is_some_and(|s| s.iter().any(u8::is_ascii_uppercase)) {
        return false;
    }
    let known_port = if rungs.scheme {
        scheme.and_then(default_port)
    } else {
        None
    };
    let path_start = h.path_start();
    if let Some(a) = h.authority.clone() {
        let host = &line[a.start..h.port_colon.unwrap_or(a.end)];
        let idn = (opts.as_uri || rungs.idn.is_some()) && scheme.is_some_and(is_dns_scheme);
        if idn {
            if !is_ldh_host(host) {
                return false;
            }
        } else if rungs.case || rungs.percent || opts.as_uri {
            let (upper, dashes) = host_case_and_dashes(host);
            if (rungs.case && upper) || ((rungs.percent || opts.as_uri) && dashes) {
                return false;
            }
        }
        if let (Some(c), true) = (h.port_colon, rungs.scheme) {
            let p = &line[c + 1..a.end];
            let bad = match known_port {
                _ if p.is_empty() => true,
                Some(def) => p == def || (p[0] == b'0' && p.len() > 1),
                None => false,
            };
            if bad {
                return false;
            }
        }
        if known_port.is_some() && matches!(line.get(path_start), None | Some(b'?')) {
            return false; // an empty path becomes "/"
        }
    }
    let rest = &line[path_start..];
    let file = || scheme.is_some_and(|s| s.eq_ignore_ascii_case(b"file"));
    if (rungs.path && rest.first() == Some(&b'/')) || file() {
        return !tail_path_has_dot_segment(rest);
    }
    true
}

/// Whether `host` has an ASCII capital letter, and whether it holds `--` anywhere (every
/// `xn--` label does; RFC 3490 §5). Eight bytes at a time ([`swar`]); `host` is ASCII (bytes
/// at or above 0x80 may give a wrong answer, never a panic). Twin: `host_case_and_dashes_naive`.
#[inline]
fn host_case_and_dashes(host: &[u8]) -> (bool, bool) {
    let (mut upper, mut dashes, mut carry) = (0u64, 0u64, 0u64);
    let mut i = 0;
    while i < host.len() {
        let w = swar::word(host, i);
        upper |= swar::upper(w);
        let d = swar::eq(w, b'-');
        dashes |= d & ((d << 8) | carry);
        carry = d >> 56;
        i += 8;
    }
    (upper != 0, dashes != 0)
}

#[cfg(test)]
fn host_case_and_dashes_naive(host: &[u8]) -> (bool, bool) {
    (
        host.iter().any(u8::is_ascii_uppercase),
        host.windows(2).any(|w| w == b"--"),
    )
}

/// True if `host` is a lower-case LDH host name that no IDNA changes: labels of 1 to 63
/// `[a-z0-9-]` not starting or ending with `-` (RFC 1034 §3.1, RFC 1123 §2.1), without `--`
/// anywhere (so none in positions 3 and 4, UTS #46 CheckHyphens, and no `xn--` label,
/// RFC 3490 §5), at most 253 octets, no empty label (not even the root label).
fn is_ldh_host(host: &[u8]) -> bool {
    host.len() <= 253
        && host.split(|&b| b == b'.').all(|l| {
            (1..=63).contains(&l.len())
                && l[0] != b'-'
                && l[l.len() - 1] != b'-'
                && !l.windows(2).any(|w| w == b"--")
                && l.iter()
                    .all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
}

/// Byte masks of eight ASCII bytes at a time (SWAR): the high bit of each byte that matches.
mod swar {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;

    /// The eight bytes of `s` from `i` (little-endian), zero-padded past the end.
    #[inline(always)]
    pub(super) fn word(s: &[u8], i: usize) -> u64 {
        match s.get(i..i + 8) {
            Some(c) => u64::from_le_bytes(c.try_into().expect("8 bytes")),
            None => {
                let mut b = [0u8; 8];
                let t = &s[i..];
                b[..t.len()].copy_from_slice(t);
                u64::from_le_bytes(b)
            }
        }
    }

    /// Bytes equal to the ASCII byte `b`, exact where `w` is ASCII: a byte of `y` is below
    /// 0x80, so adding 0x7F sets its high bit unless it is zero, and never carries.
    #[inline(always)]
    pub(super) fn eq(w: u64, b: u8) -> u64 {
        let y = w ^ (LO * b as u64);
        !y.wrapping_add(LO * 0x7F) & HI
    }

    /// ASCII capital letters (exact for bytes below 0x80: no carry crosses bytes).
    #[inline(always)]
    pub(super) fn upper(w: u64) -> u64 {
        let ge_a = w.wrapping_add(LO * (0x80 - b'A') as u64);
        let gt_z = w.wrapping_add(LO * (0x80 - b'Z' - 1) as u64);
        ge_a & !gt_z & HI
    }
}

/// [`integrity::quick_ok`] `&&` [`is_normal_plain`], the engine's question for a line
/// without a to-uri flagged byte in normalize mode (`Op::is_clean`): the same answer, for
/// less. [`normal_quick`] answers the common shapes of crawls (`https://`, `http://` and
/// `file://` with no port) in one pass of 16-byte compares; it is true only where both are,
/// and every other line asks them. The test
/// `normal_quick_implies_the_predicates_and_accepts_the_common_shapes` holds it to them.
///
/// Not inlined, for the reason [`is_normal_plain`] gives.
#[inline(never)]
pub fn is_normal_unflagged(line: &[u8], opts: &NormalizeOptions) -> bool {
    normal_quick(line, opts) || (integrity::quick_ok(line) && is_normal_plain(line, opts))
}

/// The one-pass shortcut of [`is_normal_unflagged`] (same preconditions as
/// [`is_normal_plain`]): true only for a line of the shape of [`validate::crawl_head`] (at
/// least 16 bytes that start with `https://`, `http://` or `file://`, lower case: RFC 3986
/// §3.1, §6.2.2.1) that has no `:` in its authority (no port, RFC 3986 §3.2.3) and, for http and https, a host that is not empty (so
/// `quick_ok`'s host rule and step 5 hold; `file:///` has an empty host, RFC 8089 §2), and
/// meets [`is_normal_plain`]'s rules for such a line:
///
/// * the host (up to the first `/` or `?`, RFC 3986 §3.2) has no capital with [`Rungs::case`]
///   and no `--` with [`Rungs::percent`] or [`NormalizeOptions::as_uri`]; where IDN equivalence
///   applies (http and https are [`DNS_SCHEMES`](crate::config::DNS_SCHEMES)) it is an LDH name
///   ([`is_ldh_host`], asked as such);
/// * with [`Rungs::scheme`], the path of http and https is not empty (RFC 3986 §6.2.3);
/// * the path (up to the first `?`) has no `.` or `..` segment when [`Rungs::path`] is on or
///   the scheme is `file` (RFC 3986 §5.2.4);
/// * a `file` line has no `:` or `|` after its scheme (`quick_ok`: no port, no drive letter,
///   RFC 8089 Appendix E.2).
///
/// Each 16-byte block gives the masks of `/ ? : . -` and capitals at once ([`masks16`]); a
/// line shorter than 16 bytes, or of another shape, answers false ("ask the predicates").
#[inline(always)]
fn normal_quick(line: &[u8], opts: &NormalizeOptions) -> bool {
    let Some((a0, file)) = validate::crawl_head(line) else {
        return false;
    };
    let n = line.len();
    let rungs = opts.rungs;
    // http and https are DNS schemes, file is not.
    let idn = !file && (opts.as_uri || rungs.idn.is_some());
    let check_upper = !idn && rungs.case;
    let check_dashes = !idn && (rungs.percent || opts.as_uri);
    // Blocks of 16 bytes from `i`; the last one is the line's last 16 bytes, whose bits
    // before `i` (`fresh` clears them) were seen in the block before. The lowest bit of a
    // mask and the bits below it: `low(m) - 1` (all bits when `m` is 0).
    let low = |m: u32| m & m.wrapping_neg();
    let block = |at: usize| masks16(line[at..at + 16].try_into().expect("16 bytes"));
    // The host: the bytes before the first `/` or `?`.
    let mut i = a0;
    let mut dash_carry = 0u32;
    let host_end = loop {
        let at = i.min(n - 16);
        let m = block(at);
        let fresh = !0u32 << (i - at);
        let term = (m.slash | m.question) & fresh;
        let in_host = fresh & low(term).wrapping_sub(1);
        // `-` pairs: the block's bits before `fresh` are the scheme's `//` or host bytes seen
        // before, so a pair across `i` is inside the block; the carry (byte `i - 1`) counts
        // only for a block that starts at `i`.
        let d = m.dash & low(term).wrapping_sub(1);
        if m.colon & in_host != 0
            || (check_upper && m.upper & in_host != 0)
            || (check_dashes && d & ((d << 1) | (dash_carry & fresh)) != 0)
        {
            return false;
        }
        if term != 0 {
            break at + term.trailing_zeros() as usize;
        }
        if at + 16 >= n {
            break n;
        }
        dash_carry = d >> 15;
        i = at + 16;
    };
    if host_end == a0 && !file {
        return false; // an empty http host: the guard's (`missing_host`)
    }
    if idn && !is_ldh_host(&line[a0..host_end]) {
        return false;
    }
    // With the scheme rung, http's and https's empty path becomes "/" (RFC 3986 §6.2.3).
    if rungs.scheme && !file && matches!(line.get(host_end), None | Some(b'?')) {
        return false;
    }
    // The path up to the first `?`: no `.` right after a `/` that ends a segment; in a file
    // line, no `:` or `|` up to the end.
    let mut dots = file || rungs.path;
    let mut i = host_end;
    let mut slash_carry = 0u32;
    while i < n && (dots || file) {
        let at = i.min(n - 16);
        let m = block(at);
        let fresh = !0u32 << (i - at);
        if file && m.colon & fresh != 0 {
            return false; // a drive letter maybe (`quick_ok` looks closer)
        }
        if dots {
            let q = m.question & fresh;
            let mut cand = m.dot & ((m.slash << 1) | slash_carry) & fresh & low(q).wrapping_sub(1);
            while cand != 0 {
                let k = at + cand.trailing_zeros() as usize;
                let seg_end = |j: usize| matches!(line.get(j), None | Some(b'/' | b'?'));
                if seg_end(k + 1) || (line[k + 1] == b'.' && seg_end(k + 2)) {
                    return false;
                }
                cand &= cand - 1;
            }
            slash_carry = m.slash >> 15;
            dots = q == 0;
        }
        i = at + 16;
    }
    true
}

/// The masks (bit i = byte i) of one 16-byte block that [`normal_quick`] reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Masks16 {
    slash: u32,
    question: u32,
    /// `:` and `|` (a `file` drive letter may use either, RFC 8089 Appendix E.2).
    colon: u32,
    dot: u32,
    dash: u32,
    /// ASCII capital letters.
    upper: u32,
}

/// [`Masks16`] of `b`, from the SIMD kernels of [`crate::simd::delims`]; [`masks16_naive`] is
/// its twin.
#[inline(always)]
fn masks16(b: &[u8; 16]) -> Masks16 {
    use crate::simd::delims::{eq_masks16, upper_mask16};
    let [slash, question, colon, bar, dot, dash] =
        eq_masks16(b, [b'/', b'?', b':', b'|', b'.', b'-']);
    Masks16 {
        slash,
        question,
        colon: colon | bar,
        dot,
        dash,
        upper: upper_mask16(b),
    }
}

/// The twin of [`masks16`]: one byte at a time.
#[cfg(test)]
fn masks16_naive(b: &[u8; 16]) -> Masks16 {
    let mut m = Masks16::default();
    for (i, &x) in b.iter().enumerate() {
        let bit = 1u32 << i;
        match x {
            b'/' => m.slash |= bit,
            b'?' => m.question |= bit,
            b':' | b'|' => m.colon |= bit,
            b'.' => m.dot |= bit,
            b'-' => m.dash |= bit,
            b'A'..=b'Z' => m.upper |= bit,
            _ => {}
        }
    }
    m
}
/// The character normalization form of [`Rungs::nfc`] / [`Rungs::nfkc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    Nfc,
    Nfkc,
}

/// The normalizer. One per thread: it keeps a host cache and scratch buffers, so a line costs
/// no allocation once the buffers have grown (except first-time IDNA work).
#[derive(Debug)]
pub struct Normalizer {
    opts: NormalizeOptions,
    validator: ToUri,
    finisher: ToUri,
    presenter: ToIri,
    cache: HostCache,
    /// The validator's output (unused) and the IRI form before `as_uri`.
    scratch: Vec<u8>,
    iri: Vec<u8>,
    /// A component after the byte steps, before character normalization.
    comp: Vec<u8>,
    /// A crawl line with its quiet characters percent-encoded ([`Quick::ToIriQuiet`]).
    quiet: Vec<u8>,
    /// ACE form of a host.
    ace: Vec<u8>,
    /// One run, decoded (character normalization).
    text: String,
    /// One normalized run.
    run: String,
    /// The options let [`quick_iri_form`] answer (the IRI form of step 9 with no other rung
    /// than case, percent and path: [`Normalizer::takes_quick_form`]).
    quick: bool,
    /// The options are `--level scheme`'s (without `--as-uri`): [`quick_crawl_line`]
    /// answers for crawl lines with an LDH host ([`Normalizer::takes_quick_crawl_scheme`]).
    quick_scheme: bool,
    /// The twin ([`Normalizer::new_full`]): every line through steps 0–9 as written, step 0
    /// writing its URI.
    full: bool,
}

impl Normalizer {
    /// A normalizer with these options.
    pub fn new(opts: NormalizeOptions) -> Self {
        let percent_hosts = ToUriOptions::default().host(HostMode::Percent);
        // `--idn unicode` is a display form (issue 16): the hosts its IRI form decodes keep
        // to-iri's label rules there; otherwise the comparison form decodes them as they are.
        let presenter = ToIri::new(ToIriOptions {
            host: HostMode::Percent,
        })
        .without_bidi_rule();
        let presenter = if opts.rungs.idn == Some(Idn::Unicode) {
            presenter.with_ace_kept_labels(opts.idna)
        } else {
            presenter.without_host_label_rule()
        };
        Normalizer {
            opts,
            validator: ToUri::new(percent_hosts),
            finisher: ToUri::new(percent_hosts),
            presenter,
            cache: HostCache::default(),
            scratch: Vec::new(),
            iri: Vec::new(),
            comp: Vec::new(),
            quiet: Vec::new(),
            ace: Vec::new(),
            text: String::new(),
            run: String::new(),
            quick: Self::takes_quick_form(&opts),
            quick_scheme: Self::takes_quick_crawl_scheme(&opts),
            full: false,
        }
    }

    /// True for the options under which [`quick_iri_form`] can stand for steps 1–9: the IRI
    /// form of step 9 ([`Rungs::percent`], not [`NormalizeOptions::as_uri`]), with
    /// [`Rungs::case`] and [`Rungs::path`] on or off and no other rung (no character
    /// normalization, no scheme rung, no IDN rung): `--level syntax`, the default.
    fn takes_quick_form(opts: &NormalizeOptions) -> bool {
        let r = opts.rungs;
        r.percent && !opts.as_uri && !r.nfc && !r.nfkc && !r.scheme && r.idn.is_none()
    }

    /// True for `--level scheme`'s rungs exactly (case, percent, path, scheme rules, IDN
    /// equivalence to ACE) without `--as-uri`, whose crawl lines [`quick_crawl_line`] can
    /// answer when the host is a lower-case LDH name and the path is not empty: the scheme
    /// rules then have nothing to do (a crawl line has no port; an empty path would become
    /// `/`, RFC 3986 §6.2.3), and ToASCII leaves such a host as it is in every IDNA here
    /// (UTS #46 §4 maps only ASCII capitals; RFC 3490 §4.1 skips Nameprep for ASCII labels;
    /// no `--`, so no `xn--` label), as [`is_normal_plain`] relies on too.
    fn takes_quick_crawl_scheme(opts: &NormalizeOptions) -> bool {
        opts.rungs == Rungs::level(Level::Scheme) && !opts.as_uri
    }

    /// Whether [`quick_crawl_line`] may answer for this normalizer's options (`--level syntax`'s
    /// IRI form or `--level scheme`'s; never for the twin, `full`).
    #[inline]
    fn takes_crawl_pass(&self) -> bool {
        (self.quick || self.quick_scheme) && !self.full
    }

    /// The twin of the normalizer: no [`quick_iri_form`], and step 0 writes the URI it
    /// validates (`ToUri::convert_into` instead of the scan). For the test that compares
    /// both; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_full(opts: NormalizeOptions) -> Self {
        Normalizer {
            full: true,
            ..Normalizer::new(opts)
        }
    }

    /// The uncached twin: a normalizer whose host cache stores nothing, so every host goes
    /// through ToASCII (and ToUnicode with the display decision, `--idn unicode`) again. For
    /// tests that compare cached and uncached output; not meant for production use.
    #[cfg(any(test, feature = "twins"))]
    #[doc(hidden)]
    pub fn new_uncached(opts: NormalizeOptions) -> Self {
        Normalizer {
            cache: HostCache::disabled(),
            ..Normalizer::new(opts)
        }
    }

    /// Host cache (hits, misses).
    pub fn cache_stats(&self) -> (u64, u64) {
        self.cache.stats()
    }

    /// The options.
    pub fn options(&self) -> &NormalizeOptions {
        &self.opts
    }

    /// Appends the normalized line (without terminator) to `out`.
    ///
    /// The [`Outcome`] counts the repairs and warnings of validation (step 0). A line that is
    /// already normal passes through: nothing is appended ([`crate::convert`]'s contract). On
    /// error nothing is appended.
    pub fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        self.convert_checked(line, out, true)
    }

    /// [`Normalizer::convert_into`]; `crawl`: [`quick_crawl_line`] may still answer (false
    /// when the caller asked it already and it declined).
    fn convert_checked(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
        crawl: bool,
    ) -> Result<Outcome, LineError> {
        let mark = out.len();
        let r = self.convert_inner(line, out, mark, crawl);
        if r.is_err() {
            out.truncate(mark);
        }
        r
    }

    /// [`Normalizer::convert_into`] of a line whose head the caller found
    /// ([`LineHead::find`](integrity::LineHead::find), the Guard's): a crawl line's
    /// authority comes from it ([`LineHead::plain_crawl`](integrity::LineHead::plain_crawl))
    /// instead of a second `validate::crawl_authority` (issue 11). The same results as
    /// [`Normalizer::convert_into`], its twin.
    pub fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &integrity::LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        if self.takes_crawl_pass() && head.plain_crawl {
            if let Some(a) = head.authority.clone() {
                let wide = !line[a.clone()].is_ascii();
                if let Some(q) = self.quick_crawl(line, a, wide) {
                    let mark = out.len();
                    return self.quick_crawl_result(q?, line, out, mark);
                }
                // Declined: `convert_inner` would ask `quick_crawl_line` the same again.
                return self.convert_checked(line, out, false);
            }
        }
        self.convert_into(line, out)
    }

    /// [`quick_crawl_tail`] of a crawl line (authority `a`, `wide` when it holds a non-ASCII
    /// byte), and step 0's IDNA of such a host ([`Normalizer::idna_gate`]; the scheme is
    /// `http` or `https`, before the `://` that ends at the authority's start): `Some(Err)`
    /// for a host that `to-uri` refuses.
    fn quick_crawl(
        &mut self,
        line: &[u8],
        a: Range<usize>,
        wide: bool,
    ) -> Option<Result<Quick, LineError>> {
        let q = quick_crawl_tail(
            line,
            a.start,
            a.end,
            wide,
            self.quick_scheme,
            &mut self.quiet,
        )?;
        if wide {
            let scheme = line.get(..a.start.saturating_sub(3));
            if let Err(e) = self.idna_gate(line, a, scheme) {
                return Some(Err(e));
            }
        }
        Some(Ok(q))
    }

    /// The result of steps 0–9 for a line [`quick_crawl_line`] answered `q` for: nothing to
    /// count, and the line itself or what the presenter writes for it.
    fn quick_crawl_result(
        &mut self,
        q: Quick,
        line: &[u8],
        out: &mut Vec<u8>,
        mark: usize,
    ) -> Result<Outcome, LineError> {
        let mut o = Outcome::default();
        if matches!(q, Quick::ToIri | Quick::ToIriQuiet) {
            let src: &[u8] = if q == Quick::ToIriQuiet {
                &self.quiet
            } else {
                line
            };
            self.presenter
                .convert_or_copy_into(src, out)
                .map_err(|e| LineError::new(e.kind, 0))?;
            o.settle(line, out, mark);
        }
        Ok(o)
    }

    /// The engine's slow path (the [`Guard`](integrity::Guard) around
    /// [`Normalizer::convert_with_head`]) in one call for the crawl lines that
    /// [`quick_crawl_line`] answers (issue 11: the slow path ran it a second time for every
    /// line the first call found to need step 9's decoding, a fifth of normalize's
    /// instructions on `intl_cldr`'s URIs). `Some(wrote)` after appending the result to `out`
    /// (`wrote`: it differs from `line`; `false` leaves `out` as it was), `None`, with `out`
    /// as it was, for every other line (the caller takes the slow path).
    ///
    /// On a line of [`validate::crawl_authority`]'s shape the Guard has nothing to find before
    /// the converter (`LineHead::crawl`: nothing for a browser to strip, no `\` in the
    /// authority, no file URL, a host); step 0 has nothing to report ([`quick_crawl_line`]);
    /// [`Quick::Same`] is a pass-through, which the Guard does not check; for [`Quick::ToIri`]
    /// the result is the presenter's, as in [`Normalizer::quick_crawl_result`], and is
    /// answered only when it keeps the line's scheme and authority byte for byte, where the
    /// Guard's `check_written` passes it unseen (`same_head`); a presenter error, or a result
    /// with another head, is left to the slow path (the presenter keeps hosts as written,
    /// `--host percent`, and a crawl authority has no `%`, so no tested line has another
    /// head: the comparison, ~20 bytes, keeps the Guard's condition where it is relied on).
    /// The test
    /// `normalize_crawl_line_equals_the_slow_path` (the engine's tests) compares it with the
    /// engine's slow path on every data set, their URIs and made lines.
    pub(crate) fn convert_crawl_line(&mut self, line: &[u8], out: &mut Vec<u8>) -> Option<bool> {
        if !self.takes_crawl_pass() {
            return None;
        }
        let (a0, end, wide) = validate::crawl_authority(line)?;
        // A host IDNA refuses: the slow path reports it.
        let q = self.quick_crawl(line, a0..end, wide)?.ok()?;
        if q == Quick::Same {
            return Some(false);
        }
        // The line itself, or its quiet characters percent-encoded (the same head).
        let src: &[u8] = if q == Quick::ToIriQuiet {
            &self.quiet
        } else {
            line
        };
        // The presenter with the head found here (`LineHead::crawl`'s): no second split of
        // the head, no search for `\` (`ToIri::convert_with_head`, the same result as
        // `convert_into`; the split and the search were 14 % of normalize's instructions on
        // `intl_cldr`'s URIs).
        let mark = out.len();
        let head = integrity::LineHead::of_crawl_authority(a0, end);
        let wrote = match self.presenter.convert_with_head(src, &head, out) {
            Ok(o) => {
                if o.written == Written::Passthrough {
                    // The presenter's pass-through of `src`: `src` itself (`quiet` differs
                    // from the line).
                    out.extend_from_slice(src);
                }
                out[mark..] != *line
            }
            Err(_) => return None,
        };
        if !wrote {
            out.truncate(mark);
            return Some(false);
        }
        if !integrity::same_authority(&out[mark..], line, end) {
            out.truncate(mark);
            return None;
        }
        Some(true)
    }

    fn convert_inner(
        &mut self,
        line: &[u8],
        out: &mut Vec<u8>,
        mark: usize,
        crawl: bool,
    ) -> Result<Outcome, LineError> {
        // Step 0: validation (errors of to-uri, offsets in the line). Its URI is not needed,
        // only the errors and the counts: the scan of `ToUri::validate` (issue 11).
        let mut o = if self.full {
            self.scratch.clear();
            let r = self.validator.convert_into(line, &mut self.scratch);
            self.host_idna_gate(line, None, r)?
        } else {
            if crawl && self.takes_crawl_pass() {
                if let Some((a0, end, wide)) = validate::crawl_authority(line) {
                    if let Some(q) = self.quick_crawl(line, a0..end, wide) {
                        // Nothing else for step 0 to report or count (see there).
                        return self.quick_crawl_result(q?, line, out, mark);
                    }
                }
            }
            let r = self
                .validator
                .validate_counted(line, None, &mut self.scratch);
            let (o, head) = match r {
                Ok((o, head)) => {
                    // The head is in the line's offsets when nothing was repaired.
                    let h = head.as_ref().filter(|_| o.repairs == 0);
                    self.host_idna_gate(line, h, Ok(()))?;
                    (o, head)
                }
                Err(e) => {
                    return Err(self
                        .host_idna_gate(line, None, Err::<(), _>(e))
                        .unwrap_err())
                }
            };
            if self.quick && o.repairs == 0 && o.host_fallbacks == 0 {
                match quick_iri_form(line, head) {
                    Quick::Same => {
                        return Ok(Outcome {
                            written: Written::Passthrough,
                            ..o
                        });
                    }
                    Quick::ToIri => {
                        let mut o = o;
                        self.presenter
                            .convert_or_copy_into(line, out)
                            .map_err(|e| LineError::new(e.kind, 0))?;
                        o.settle(line, out, mark);
                        return Ok(o);
                    }
                    Quick::Full | Quick::ToIriQuiet => {}
                }
            }
            o
        };
        if self.opts.as_uri {
            let mut iri = std::mem::take(&mut self.iri);
            iri.clear();
            let r = self.normalize_iri(line, &mut iri).and_then(|()| {
                // Step 8, from the IRI form of step 9 when the percent rung is on (so that
                // the URI form merges whatever the IRI form merges: hex case of the octets
                // step 9 keeps encoded). The IRI form is valid, so this cannot fail; if it
                // did, its offset would be in the normalized text, so report it at the
                // line's start.
                if self.opts.rungs.percent {
                    self.scratch.clear();
                    self.finisher
                        .convert_or_copy_into(&iri, &mut self.scratch)
                        .and_then(|_| {
                            iri.clear();
                            self.presenter.convert_or_copy_into(&self.scratch, &mut iri)
                        })
                        .map_err(|e| LineError::new(e.kind, 0))?;
                }
                self.finisher
                    .convert_or_copy_into(&iri, out)
                    .map_err(|e| LineError::new(e.kind, 0))
            });
            self.iri = iri;
            r?;
        } else if self.opts.rungs.percent {
            // Step 9: the IRI form of the normalized URI (see "Idempotence and stability").
            let mut iri = std::mem::take(&mut self.iri);
            iri.clear();
            let r = self.normalize_iri(line, &mut iri).and_then(|()| {
                self.scratch.clear();
                self.finisher
                    .convert_or_copy_into(&iri, &mut self.scratch)
                    .and_then(|_| self.presenter.convert_or_copy_into(&self.scratch, out))
                    .map(|_| ())
                    .map_err(|e| LineError::new(e.kind, 0))
            });
            self.iri = iri;
            r?;
        } else {
            self.normalize_iri(line, out)?;
            if self.opts.rungs.idn == Some(Idn::Unicode) {
                self.ace_rtl_label_before_number(out, mark);
            }
        }
        // Written whole, then compared: an unchanged line is taken back (passthrough).
        o.settle(line, out, mark);
        Ok(o)
    }

    /// `--idn unicode` without the percent rung (no presenter runs, which applies it
    /// otherwise: `ToIri::keep_bidi_encoded`): the right-to-left label of a DNS host that a
    /// number after the host would be displayed in place of
    /// ([`crate::convert::bidi::rtl_host_before_number`]) is written in its ACE form (a QA
    /// sweep: `--level string --idn unicode` wrote `https://במי.ישראל/8.8.8.8/login`).
    fn ace_rtl_label_before_number(&mut self, out: &mut Vec<u8>, mark: usize) {
        let w = &out[mark..];
        if !crate::convert::bidi::may_contain_rtl(w) {
            return;
        }
        let Ok(t) = std::str::from_utf8(w) else {
            return;
        };
        let c = components::split(w);
        if !c
            .scheme
            .clone()
            .is_some_and(|sr| crate::config::is_dns_scheme(&w[sr]))
        {
            return;
        }
        let Some(k) = crate::convert::to_iri::rtl_host_label_before_number(t, &c) else {
            return;
        };
        // The label up to the next dot; a host ends at a delimiter no label holds.
        let end = t[k..]
            .find(['.', '/', ':', '?', '#'])
            .map_or(t.len(), |p| k + p);
        if let Some(ace) = crate::host::to_ascii_lower(&t[k..end], self.opts.idna) {
            out.splice(mark + k..mark + end, ace.into_bytes());
        }
    }

    /// Steps 1–7, appending the IRI form to `dst`.
    fn normalize_iri(&mut self, line: &[u8], dst: &mut Vec<u8>) -> Result<(), LineError> {
        let rungs = self.opts.rungs;
        let c = components::split(line);
        let scheme = c.scheme.clone().map(|r| &line[r]);
        let known_port = if rungs.scheme {
            scheme.and_then(default_port)
        } else {
            None
        };
        // Step 2: scheme (§5.3.2.1).
        if let Some(s) = scheme {
            if rungs.case {
                dst.extend(s.iter().map(u8::to_ascii_lowercase));
            } else {
                dst.extend_from_slice(s);
            }
            dst.push(b':');
        }
        if let Some(ar) = c.authority.clone() {
            dst.extend_from_slice(b"//");
            let a = components::split_authority(line, ar)?;
            if let Some(ui) = a.userinfo.clone() {
                self.component(&line[ui], Component::Userinfo, dst);
                dst.push(b'@');
            }
            // Step 4: host.
            self.host(line, a.host.clone(), scheme, dst)?;
            // Step 5: port (§5.3.3, RFC 3986 §3.2.3).
            if let Some(pr) = a.port.clone() {
                let p = &line[pr];
                if !rungs.scheme {
                    dst.push(b':');
                    dst.extend_from_slice(p);
                } else if let Some(def) = known_port {
                    let digits = match p.iter().position(|&b| b != b'0') {
                        Some(k) => &p[k..],
                        None => &p[p.len().saturating_sub(1)..], // "" or "0"
                    };
                    if !digits.is_empty() && digits != def {
                        dst.push(b':');
                        dst.extend_from_slice(digits);
                    }
                } else if !p.is_empty() {
                    dst.push(b':');
                    dst.extend_from_slice(p);
                }
            }
        }
        // Step 6: path.
        let pstart = dst.len();
        self.component(&line[c.path.clone()], Component::Path, dst);
        if rungs.path && dst.get(pstart) == Some(&b'/') {
            // A segment that is `.` or `..` once its `%2E`s are decoded is a dot segment too
            // (RFC 3986 §6.2.2.2; the percent rung has decoded them already).
            if !rungs.percent {
                decode_dot_segments_in_place(dst, pstart);
            }
            remove_dot_segments_in_place(dst, pstart);
            if c.authority.is_none() && dst[pstart..].starts_with(b"//") {
                dst.splice(pstart..pstart, *b"/.");
            }
        }
        if known_port.is_some() && c.authority.is_some() && dst.len() == pstart {
            dst.push(b'/');
        }
        // Step 7: query and fragment.
        if let Some(q) = c.query.clone() {
            dst.push(b'?');
            self.component(&line[q], Component::Query, dst);
        }
        if let Some(f) = c.fragment.clone() {
            dst.push(b'#');
            self.component(&line[f], Component::Fragment, dst);
        }
        Ok(())
    }

    /// Step 3 on one component other than the host. The userinfo is never character-normalized
    /// (module docs, "Character normalization").
    fn component(&mut self, s: &[u8], part: Component, dst: &mut Vec<u8>) {
        let form = match part {
            Component::Userinfo => None,
            _ => self.form(),
        };
        match form {
            None => byte_steps(s, part, self.opts.rungs, dst),
            Some(form) => {
                self.comp.clear();
                byte_steps(s, part, self.opts.rungs, &mut self.comp);
                normalize_runs(&self.comp, form, &mut self.text, &mut self.run, dst);
            }
        }
    }

    fn form(&self) -> Option<Form> {
        if self.opts.rungs.nfkc {
            Some(Form::Nfkc)
        } else if self.opts.rungs.nfc {
            Some(Form::Nfc)
        } else {
            None
        }
    }

    /// The IDN handling of a host of this scheme, if any: the rung's form, and [`Idn::Ascii`]
    /// for `as_uri` (a URI's host is its ACE form, as `to-uri` writes it; and `as_uri` must
    /// merge whatever the IRI form merges, so it maps ASCII hosts too: U+212A KELVIN SIGN,
    /// `K` and `k` are one host once NFC and IDNA have both run).
    fn idn_for(&self, scheme: Option<&[u8]>) -> Option<Idn> {
        if !scheme.is_some_and(is_dns_scheme) {
            return None;
        }
        if self.opts.as_uri {
            Some(Idn::Ascii)
        } else {
            self.opts.rungs.idn
        }
    }

    /// Step 0's IDNA (README "normalize": "a line `to-uri` refuses is the same error", at
    /// every level): the validator encodes hosts (`--host percent`, no IDNA), so a host of
    /// non-ASCII characters of a DNS scheme, which `to-uri` maps by IDNA (RFC 3987 §3.1
    /// step 2, 3987bis §3.4; the IDNA version of `--host`, UTS #46 by default) goes through
    /// ToASCII here, through the host cache the IDN rung shares: its error is `idna` at the
    /// host, and for a special scheme an ACE form that browsers read as IPv4 (`127。1`) is
    /// `ambiguous-ipv4` (WHATWG URL §3.5), as `to-uri`'s Guard reports it, after any other
    /// error of step 0. Found by a QA sweep: `--level
    /// string`/`syntax` wrote `http://üb--c.de/` and `http://ü..de/` unchanged.
    ///
    /// `r` is step 0's answer: on its error, the host's error comes first when the error is
    /// after the host (to-uri's order), unless the line is not UTF-8 (step 1 before
    /// everything). The host is found by `head` (step 0's, in the line's offsets)
    /// or by splitting the line.
    fn host_idna_gate<T>(
        &mut self,
        line: &[u8],
        head: Option<&to_uri::Head>,
        r: Result<T, LineError>,
    ) -> Result<T, LineError> {
        if matches!(&r, Err(e) if e.kind == ErrorKind::InvalidUtf8) {
            return r;
        }
        let (scheme, host) = match head {
            Some((c, a)) => (c.scheme.clone(), a.as_ref().map(|a| a.host.clone())),
            // An ASCII line has no host to map: no split.
            None if line.is_ascii() => return r,
            None => {
                let c = components::split(line);
                let a = c
                    .authority
                    .clone()
                    .and_then(|ar| components::split_authority(line, ar).ok());
                (c.scheme.clone(), a.map(|a| a.host))
            }
        };
        let Some(hr) = host else { return r };
        if let Err(e) = &r {
            // An error in the host is one of to-uri's host checks before IDNA (a control, a
            // bracket, a bad `%`: `ToUri::host_syntax`), or before the host.
            if e.offset < hr.end {
                return r;
            }
        }
        let scheme = scheme.map(|s| &line[s]);
        match self.idna_gate(line, hr, scheme) {
            // `ambiguous-ipv4` is the Guard's, after the conversion: any error of step 0
            // comes first (`http://①/%zz` is `bad-percent`, as in to-uri).
            Err(g) if g.kind == ErrorKind::AmbiguousIpv4 && r.is_err() => r,
            Err(g) => Err(g),
            Ok(()) => r,
        }
    }

    /// [`Normalizer::host_idna_gate`] of the host at `hr` of `line`, of `scheme`.
    fn idna_gate(
        &mut self,
        line: &[u8],
        hr: Range<usize>,
        scheme: Option<&[u8]>,
    ) -> Result<(), LineError> {
        let h = &line[hr.clone()];
        if h.is_ascii() {
            return Ok(());
        }
        // The DNS schemes, as the IDN rung (`--host` picks only the IDNA version in
        // normalize; found by a QA sweep: IDNA2003 on every scheme refused on a second pass
        // what the first wrote).
        let dns = host::idna_for(HostMode::Auto, scheme).is_some();
        let (true, Ok(text)) = (dns, std::str::from_utf8(h)) else {
            return Ok(());
        };
        let idna = self.opts.idna;
        // A host the UTS #46 fast path accepts without writing its Punycode (issue 11:
        // Punycode was a third of this check) is valid, and cannot be `ambiguous-ipv4`: its
        // labels are split at `.` alone and hold `[a-z0-9-]` or non-ASCII characters that
        // map to themselves, so its ACE form ends in a number exactly when the host does
        // (an `xn--` label is no number). The test `every_level_refuses_what_to_uri_refuses`
        // and `host::fast`'s `accepts_implies_to_ascii` hold it to the full check.
        if idna == Idna::Uts46 && host::fast::accepts(text) {
            return Ok(());
        }
        // `ambiguous-ipv4` only for a special scheme, whose host browsers parse (the Guard's
        // `check_output`; `ssh://①/` is `ssh://1/` for to-uri, found by a QA sweep).
        let special = scheme.is_some_and(components::is_special_scheme);
        self.ace_check(text, h, hr.start, special)
    }

    /// ToASCII of the host `text` (written `h` in the line, at `at`) through the host cache,
    /// as to-uri maps it: `idna` when IDNA refuses it; with `parsed` (browsers parse the
    /// host), `ambiguous-ipv4` when the ACE form is an address to browsers and a name to RFC
    /// 3986 that `h` was not written as (`127。1` and `𝟏27.1` become `127.1`), as the Guard
    /// reports it (WHATWG URL §3.5, [`integrity::made_numeric`]). Step 0's check and the decoded
    /// `%HH` host's ([`Normalizer::check_decoded_host`]).
    fn ace_check(
        &mut self,
        text: &str,
        h: &[u8],
        at: usize,
        parsed: bool,
    ) -> Result<(), LineError> {
        self.ace.clear();
        match self.cache.to_ascii(text, self.opts.idna, &mut self.ace) {
            Ok(())
                if parsed
                    && !components::is_ipv4(&self.ace)
                    && integrity::made_numeric(h, &self.ace) =>
            {
                Err(LineError::new(ErrorKind::AmbiguousIpv4, at))
            }
            Ok(()) => Ok(()),
            Err(reason) => Err(host::idna_error(reason, text, h, at)),
        }
    }

    /// Issue #10: the IRI form (step 9) percent-decodes a host of `%HH` of UTF-8
    /// (`http://%c3%a9_x.com/` would be written `http://é_x.com/`), and to-uri then runs IDNA
    /// on it (RFC 3987 §3.1). A host that IDNA refuses once decoded is reported here (`idna`,
    /// at the host) instead of written in a form that to-uri and a second normalize reject.
    fn check_decoded_host(
        &mut self,
        h: &[u8],
        at: usize,
        scheme: Option<&[u8]>,
    ) -> Result<(), LineError> {
        let iri_form = self.opts.rungs.percent && !self.opts.as_uri;
        let encoded = h.contains(&b'%');
        if !iri_form || !scheme.is_some_and(is_dns_scheme) || (h.is_ascii() && !encoded) {
            return Ok(());
        }
        let text = std::str::from_utf8(h).expect("validated UTF-8, ASCII edits");
        let decoded = if encoded {
            match crate::host::host_octets(h).map(String::from_utf8) {
                Some(Ok(d)) => std::borrow::Cow::Owned(d),
                // Not UTF-8 as a whole: the presenter (to-iri) decodes the UTF-8 sequences it
                // finds and keeps the other octets encoded (`%C3%BC255%FF` → `ü255%FF`), a
                // host step 0 of a second pass refuses (3987bis §3.4.2: its octets are not
                // UTF-8; found by a QA sweep). A browser refuses both (WHATWG URL §3.5:
                // U+FFFD is disallowed). Only a host with no such sequence stays as it is.
                Some(Err(e)) if has_utf8_sequence(e.as_bytes()) => {
                    return Err(LineError::new(
                        ErrorKind::Idna(crate::error::IdnaReason::PercentNotUtf8),
                        at,
                    ));
                }
                _ => return Ok(()),
            }
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        if decoded.is_ascii() {
            return Ok(());
        }
        // A raw host is checked too when the IRI form will percent-encode one of its
        // characters (a joiner, a bidi control: not displayable, §4.1): the second pass would
        // decode that `%HH` host and refuse it (`http://\u{200D}/` must not become
        // `http://%E2%80%8D/` and then an error: normalize is idempotent, issue #10).
        // (`is_displayable` implies `is_iri_char` outside the query.)
        // The presenter keeps encoded what is not displayable and re-encodes what has a
        // delimiter in its skeleton (`a\u{FF0E}.b.com` is written `a%EF%BC%8E.b.com`):
        // [`super::to_iri::is_clean_char`].
        let presented_encoded = decoded
            .chars()
            .any(|c| !(c.is_ascii() || super::to_iri::is_clean_char(c, false)));
        if !encoded && !presented_encoded {
            return Ok(());
        }
        // The host to-uri would write (`127%E3%80%821` is `127.1`): one that
        // browsers read as IPv4 is the Guard's `ambiguous-ipv4` on a second pass (WHATWG URL
        // §3.5), so it is reported on the first; only for a special scheme, whose host
        // browsers parse, as step 0 and the Guard (`ssh://%E2%91%A0/` was refused here and
        // `ssh://①/` was not, nor by to-uri).
        let special = scheme.is_some_and(components::is_special_scheme);
        self.ace_check(&decoded, h, at, special)
    }

    /// Step 4: the host at `hr` of `line`.
    fn host(
        &mut self,
        line: &[u8],
        hr: Range<usize>,
        scheme: Option<&[u8]>,
        dst: &mut Vec<u8>,
    ) -> Result<(), LineError> {
        let rungs = self.opts.rungs;
        let h = &line[hr.clone()];
        if h.first() == Some(&b'[') {
            // IP literal (validated): case only.
            if rungs.case {
                dst.extend(h.iter().map(u8::to_ascii_lowercase));
            } else {
                dst.extend_from_slice(h);
            }
            return Ok(());
        }
        let start = dst.len();
        byte_steps(h, Component::Host, rungs, dst);
        self.check_decoded_host(&dst[start..], hr.start, scheme)?;
        // Character normalization before IDN and case: NFC can make a host US-ASCII only
        // (U+212A KELVIN SIGN is `K`), and both must then see it as such (IDNA maps by NFC or
        // NFKC itself, so its result does not change).
        if let Some(form) = self.form() {
            self.comp.clear();
            self.comp.extend_from_slice(&dst[start..]);
            dst.truncate(start);
            // A host that IDNA reads ([`host::idna_reads`]: a DNS scheme, `file`, or no
            // scheme) keeps its character normalization only where IDNA reads the same name
            // in it: IDNA maps before it normalizes (UTS #46 §4 steps 1–2, RFC 3490 §4.1 via
            // Nameprep), and NFC's canonical reordering can move a mark that the mapping
            // changes (U+0345 is ι to IDNA: `a\u{345}\u{300}.com` is `xn--a-76m.com`, its
            // NFC `xn--0ca27l.com`; found by a QA sweep: `--nfc` moved the link to another
            // domain). Otherwise NFKC falls back to NFC (so that what NFC merges NFKC merges
            // too), and NFC to the host as written, for the IDN rung and `to-uri` to map.
            let reads = host::idna_reads(scheme);
            let forms: &[Form] = match form {
                Form::Nfkc => &[Form::Nfkc, Form::Nfc],
                Form::Nfc => &[Form::Nfc],
            };
            let mut kept = false;
            for &f in forms {
                normalize_runs(&self.comp, f, &mut self.text, &mut self.run, dst);
                if !reads || dst[start..] == self.comp[..] || self.same_idn_host(start, dst) {
                    kept = true;
                    break;
                }
                dst.truncate(start);
            }
            if !kept {
                dst.extend_from_slice(&self.comp);
            }
        }
        if let Some(mode) = self.idn_for(scheme) {
            // Every host goes through ToASCII, ASCII ones too: UTS #46 maps ASCII capitals
            // (`EX%41MPLE.com`, `exAmple.com` and `example.com` are one host whichever other
            // rungs ran first), and the ACE form is written in lower case (IDNA2003 keeps the
            // case of ASCII labels, RFC 3490 §4.1; case is not significant in a DNS host,
            // RFC 3986 §3.2.2).
            let text = std::str::from_utf8(&dst[start..]).expect("UTF-8 validated, ASCII edits");
            let non_ascii = !text.is_ascii();
            self.ace.clear();
            match self.cache.to_ascii(text, self.opts.idna, &mut self.ace) {
                Ok(()) => {
                    dst.truncate(start);
                    self.ace.make_ascii_lowercase();
                    match mode {
                        Idn::Ascii => dst.extend_from_slice(&self.ace),
                        Idn::Unicode => self.push_unicode_host(dst),
                    }
                }
                Err(reason) if non_ascii => {
                    return Err(host::idna_error(reason, text, h, hr.start));
                }
                Err(_) => {} // an ASCII host that is no IDN stays as it is
            }
        }
        if rungs.case {
            // §5.3.2.1: only a host of US-ASCII characters is case-normalized
            // (`http://RÉSUMÉ.example.org/` keeps its host; IDN equivalence is `--idn`'s).
            // A host whose `%HH` encode non-ASCII octets stands for non-ASCII characters
            // (3987bis §3.4.2), so `B%C3%9CCHER` is kept like `BÜCHER` (idempotent with
            // `--as-uri`).
            let h = &dst[start..];
            let ascii_only = h.is_ascii()
                && !h.windows(3).any(|w| {
                    w[0] == b'%' && matches!(w[1], b'8'..=b'9' | b'a'..=b'f' | b'A'..=b'F')
                });
            lower_host(&mut dst[start..], ascii_only);
        }
        Ok(())
    }

    /// [`host::same_idna_name`] of the host as written (`self.comp`) and as
    /// character-normalized (`dst[start..]`), in this run's IDNA version.
    fn same_idn_host(&self, start: usize, dst: &[u8]) -> bool {
        let text = |b| std::str::from_utf8(b).expect("UTF-8 validated, ASCII edits");
        host::same_idna_name(text(&self.comp), text(&dst[start..]), self.opts.idna)
    }

    /// [`Idn::Unicode`]: ToUnicode of the ACE form in `self.ace` (in lower case), kept when
    /// displayable and when ToASCII gives the ACE form back, up to ASCII case (the rule of
    /// `to-iri`, 3987bis §4.2 step 7); otherwise the lower-case ACE form.
    fn push_unicode_host(&mut self, dst: &mut Vec<u8>) {
        // ToUnicode of the lower-case form: Punycode keeps the case of basic code points
        // (RFC 3492 Appendix A), so `XN--BCHER-KVA` would decode to `BüCHER`.
        self.ace.make_ascii_lowercase();
        let ace = std::str::from_utf8(&self.ace).expect("ACE is ASCII");
        let idna = self.opts.idna;
        // The decision is cached per host ([`HostCache::to_unicode`]).
        if !self
            .cache
            .to_unicode(ace, idna, |ace, u| present_host(ace, u, idna), dst)
        {
            dst.extend_from_slice(&self.ace);
        }
    }
}

/// What [`quick_iri_form`] found for a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quick {
    /// Steps 1–9 give the line back.
    Same,
    /// Steps 1–9 give what the presenter ([`ToIri`], `--host percent`) writes for the line.
    ToIri,
    /// Steps 0–9 give what the presenter writes for the line with its quiet characters
    /// percent-encoded ([`encode_quiet_tail`]), which the normalizer holds (`quiet`). Only
    /// [`quick_crawl_tail`] answers it.
    ToIriQuiet,
    /// Run steps 1–9.
    Full,
}

/// Issue #11: the result of steps 1–9 under [`Normalizer::takes_quick_form`]'s options for
/// a line step 0 accepted without a repair or a host fallback (`head`: step 0's split, if
/// it gave one), found in one pass over the line instead of three conversions. It answers
/// [`Quick::Full`] wherever it cannot tell. Conditions, per step of the module docs:
///
/// * 2: the scheme has no capital (RFC 3986 §3.1, RFC 3987 §5.3.2.1).
/// * 3: in every component, no printable ASCII outside IRIs and no control (nothing for the
///   byte steps to percent-encode, RFC 3987 §3.1); every `%HH` has upper-case hex digits
///   (§5.3.2.1) and stands for no unreserved character (§5.3.2.3); every raw non-ASCII
///   character is one that [`ToIri`] writes decoded and as it is in its component
///   ([`super::to_iri::is_clean_char`]: displayable, RFC 3987 §3.2 step 4, no delimiter in
///   its UTS #39 skeleton, issue 16), which is `iunreserved` there (§2.2, §4.1: the byte
///   steps keep it; the test `clean_characters_are_iri_characters` holds the two rules to
///   each other).
/// * 4: a reg-name host has no `%` (no host IDNA must check once decoded:
///   `check_decoded_host` has nothing to do for a raw host of displayable characters), and
///   no capital when it is US-ASCII (§5.3.2.1); an IP literal has no capital (RFC 3986
///   §3.2.2). An `xn--` label (RFC 3490 §5), valid or not, needs nothing more: these
///   options have no IDN rung, and the presenter keeps hosts as written (`--host percent`),
///   so step 4 writes such a host as it is, as it does `a--b` (issue 11: the rule had sent
///   every line with an ACE host through steps 0–9, a quarter of normalize's instructions on
///   `intl_cldr`'s URIs). The twin tests include valid, invalid and upper-case ACE hosts.
/// * 6: the path has no `.` or `..` segment (RFC 3986 §5.2.4 is then the identity).
/// * 8, 9: step 9 writes `to_iri(to_uri(x))` for the IRI form `x`, here the line itself.
///   `to_uri` (`--host percent`, as step 0: the same URI step 0 validated) percent-encodes
///   exactly the raw non-ASCII characters (RFC 3987 §3.1 step 2); `to_iri` decodes each of
///   them back, as they are clean, and treats the line's own `%HH` as it would in the line
///   itself: UTF-8 synchronizes on every raw character's lead octet, so a run of `%HH` next
///   to it splits into the same characters either way (RFC 3629 §3), and the display rule is
///   per character. So step 9 writes `to_iri(x)`: the line itself when every `%HH` is of
///   ASCII (kept as written, §3.2 step 2), else the presenter's output ([`Quick::ToIri`]).
///
/// The test `quick_form_matches_the_full_steps` compares the normalizer with its twin
/// ([`Normalizer::new_full`]) on every data set and on random lines.
fn quick_iri_form(line: &[u8], head: Option<to_uri::Head>) -> Quick {
    let split = match head {
        Some((c, a)) if a.is_some() || c.authority.is_none() => {
            let tail = components::split_tail_memchr(line, c);
            Ok((tail, a))
        }
        _ => {
            let c = components::split(line);
            match c.authority.clone() {
                Some(ar) => components::split_authority(line, ar).map(|a| (c, Some(a))),
                None => Ok((c, None)),
            }
        }
    };
    let Ok((c, auth)) = split else {
        return Quick::Full;
    };
    if c.scheme
        .clone()
        .is_some_and(|r| line[r].iter().any(u8::is_ascii_uppercase))
    {
        return Quick::Full;
    }
    // Where the components that the mark rule looks at start (the host is decoded as it is).
    let after_host = auth
        .as_ref()
        .and_then(|a| a.userinfo.as_ref().map(|u| u.start))
        .unwrap_or(c.path.start);
    // Most lines pass every component's scan at once ([`clean_line`]), the kernel
    // answering the mark rule from `after_host` on the way.
    let whole = clean_line_marks(line, after_host);
    let clean = whole.is_some();
    let mut high = whole.is_some_and(|c| c.high);
    let mut scan = |r: Range<usize>, in_query: bool| {
        clean
            || match quick_component(&line[r], in_query) {
                Some(h) => {
                    high |= h;
                    true
                }
                None => false,
            }
    };
    if let Some(a) = auth {
        if let Some(ui) = a.userinfo {
            if !scan(ui, false) {
                return Quick::Full;
            }
        }
        let h = &line[a.host.clone()];
        let upper = || h.iter().any(u8::is_ascii_uppercase);
        if h.first() == Some(&b'[') {
            if upper() {
                return Quick::Full;
            }
        } else if memchr::memchr(b'%', h).is_some()
            || (h.is_ascii() && upper())
            || !scan(a.host, false)
        {
            return Quick::Full;
        }
    }
    let path = &line[c.path.clone()];
    if has_dot_segment(path) || !scan(c.path, false) {
        return Quick::Full;
    }
    if let Some(q) = c.query {
        if !scan(q, true) {
            return Quick::Full;
        }
    }
    if let Some(f) = c.fragment {
        if !scan(f, false) {
            return Quick::Full;
        }
    }
    // A raw combining mark on a delimiter or a `%HH` after the host: step 9 may keep it
    // encoded (issue 16, [`raw_mark_on_unsafe_base`]): the kernel's answer for a clean line,
    // else asked last, of a line that passed every other test.
    let mark = match whole {
        Some(c) => c.mark,
        None => raw_mark_on_unsafe_base(line, after_host),
    };
    if mark {
        Quick::Full
    } else if high {
        Quick::ToIri
    } else {
        Quick::Same
    }
}

/// True when a raw non-ASCII character of `line` at or after `from` that follows an ASCII
/// byte (or starts there) is a combining mark on a base that must not carry one
/// ([`host::display::mark_base_unsafe`]: an ASCII delimiter or the last digit of a `%HH`), or
/// when such a byte starts no character ([`host::display::starts_with_mark`]; both callers'
/// lines are UTF-8 or refused by [`clean_line`] anyway). Step 9 writes `to_iri(to_uri(x))`: `to_uri` encodes
/// the mark and the presenter keeps such a mark encoded, with the marks after it (issue 16:
/// `?q=` + U+0338 reads `?q≠`), where the quick forms would write the line's own character.
/// A mark after any other raw character has a base that is a raw character too, or the
/// first mark of its run is one this looks at. Conservative (such lines take the full
/// steps): a mark after a `%HH` that the presenter decodes (`%C3%A9` + U+0301) has a safe
/// base there. Sixteen bytes at a time ([`crate::simd::runs::any_run_start`]), and a
/// decoding at each ASCII-to-non-ASCII step (a few per line). The callers start after the
/// host: the full steps decode a host as it is (marks included: IDNA's NFC makes `=` +
/// U+0338 the host `≠`), and the quick paths run without an IDN rung. Twin:
/// [`raw_mark_on_unsafe_base_naive`].
fn raw_mark_on_unsafe_base(line: &[u8], from: usize) -> bool {
    let from = from.min(line.len());
    crate::simd::runs::any_run_start(&line[from..], true, |q| {
        host::display::mark_on_unsafe_base_at(line, from + q)
    })
}

/// The twin of [`raw_mark_on_unsafe_base`], character by character (the base judged by the
/// same [`host::display::mark_base_unsafe`], tested on its own), for UTF-8 lines (the
/// callers' lines are: step 0 validated them, or [`clean_line`] refuses them anyway).
#[cfg(any(test, feature = "twins"))]
fn raw_mark_on_unsafe_base_naive(s: &str, from: usize) -> bool {
    let line = s.as_bytes();
    let mut prev: Option<char> = None;
    for (p, c) in s.char_indices() {
        let after_ascii = prev.is_none_or(|q| q.is_ascii()) || p == from;
        if p >= from
            && !c.is_ascii()
            && after_ascii
            && unicode_normalization::char::is_combining_mark(c)
            && host::display::mark_base_unsafe(&line[..p])
        {
            return true;
        }
        prev = Some(c);
    }
    false
}

/// `Some(high)` if `line` is UTF-8 (RFC 3629 §4) with no printable ASCII outside IRIs, no
/// control, no `[` or `]`, at most one `#`, every `%` the start of a `%HH` with upper-case
/// hex digits of no unreserved character, and only non-ASCII characters that
/// [`super::to_iri::is_clean_char`] accepts outside the query (which it accepts in the query
/// too: the test `clean_outside_the_query_is_clean_inside`); `high` says whether a `%HH` is
/// of an octet at or above 0x80 (issue #11). Then every component of a line step 0 accepted
/// passes [`quick_component`] (with `high` over them all); and a line of a crawl shape has
/// nothing for step 0 to report ([`quick_crawl_line`]: brackets and a second `#` are its
/// errors, a `%` without two hex digits too). By 64-byte windows where the CPU has AVX-512
/// VBMI ([`clean_avx512::clean_line`]), by 32-byte windows where it has AVX2
/// ([`clean_avx2::clean_line`]), elsewhere by [`clean_line_scalar`]. Twin:
/// [`clean_line_naive`]. The callers ask [`clean_line_marks`], which answers this with the
/// mark rule's; this form is the tests' and the fuzz target's.
#[cfg(any(test, feature = "twins"))]
fn clean_line(line: &[u8]) -> Option<bool> {
    clean_line_marks(line, usize::MAX).map(|c| c.high)
}

/// What [`clean_line_marks`] tells of a clean line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CleanLine {
    /// [`clean_line`]'s answer: a `%HH` of an octet at or above 0x80.
    high: bool,
    /// Whether the line may hold a dot segment: false only where the AVX2 kernel found no
    /// `/` followed by `.` in it (a dot segment after a crawl line's authority starts with
    /// one: the tail begins with `/`, `?` or `#`, RFC 3986 §3.3), true otherwise (the caller
    /// looks).
    dots: bool,
    /// [`raw_mark_on_unsafe_base`] of the line from the offset given (exactly).
    mark: bool,
}

/// [`clean_line`], with [`CleanLine`]'s two other answers. The line kernels find the starts
/// of non-ASCII runs in the windows they already classify ([`window_run_starts`]), so that
/// issue 16's mark rule costs no second pass over the line.
#[inline]
fn clean_line_marks(line: &[u8], from: usize) -> Option<CleanLine> {
    #[cfg(target_arch = "x86_64")]
    {
        if clean_avx512::available() {
            // SAFETY: the kernel's features (AVX-512 F, BW, VBMI, BMI2), detected just above.
            return unsafe { clean_avx512::clean_line(line, from) }.map(|(high, mark)| CleanLine {
                high,
                dots: true,
                mark,
            });
        }
        if clean_avx2::available() {
            // SAFETY: the kernel's feature (AVX2), detected just above.
            return unsafe { clean_avx2::clean_line(line, from) }
                .map(|(high, dots, mark)| CleanLine { high, dots, mark });
        }
    }
    clean_line_scalar(line).map(|high| CleanLine {
        high,
        dots: true,
        mark: raw_mark_on_unsafe_base(line, from),
    })
}

/// The offsets (bit k: `i + k`) of a window at `i` of `line` where [`raw_mark_on_unsafe_base`]
/// from `from` looks: its non-ASCII bytes (`high`, lanes past the line's end clear) that
/// follow an ASCII byte (`before`: bit 0 when the byte before the window is non-ASCII), or
/// that are at `from` itself, at or after `from`. The windows are at most 64 bytes.
#[inline(always)]
fn window_run_starts(high: u64, before: u64, i: usize, from: usize) -> u64 {
    let starts = high & !(high << 1 | before);
    match from.checked_sub(i) {
        None => starts,
        Some(d) if d >= 64 => 0,
        Some(d) => (starts | high & 1 << d) & u64::MAX << d,
    }
}

/// Whether one of `starts` (bit k: offset `i + k` of `line`, UTF-8 there) starts a combining
/// mark on an unsafe base ([`raw_mark_on_unsafe_base`]'s test, in its order).
#[inline(always)]
fn unsafe_mark_at(line: &[u8], i: usize, mut starts: u64) -> bool {
    while starts != 0 {
        let p = i + starts.trailing_zeros() as usize;
        starts &= starts - 1;
        if host::display::mark_on_unsafe_base_at(line, p) {
            return true;
        }
    }
    false
}

/// [`clean_line`] without AVX-512: [`quick_component`]'s walk of the whole line as one
/// component outside the query (exactly the rest of the rule; its strict decoding answers
/// `None` where the line is not UTF-8), which in this form also stops at `#` (counted: at
/// most one) and refuses `[` and `]`. Three `memchr` passes over the line did that before
/// (issue 11: ~8 % of normalize's instructions on `intl_cldr` where no AVX-512 runs).
fn clean_line_scalar(line: &[u8]) -> Option<bool> {
    quick_walk::<true>(line, false)
}

/// The twin of [`clean_line`], character by character.
#[cfg(any(test, feature = "twins"))]
fn clean_line_naive(line: &[u8]) -> Option<bool> {
    let s = std::str::from_utf8(line).ok()?;
    if s.matches('#').count() > 1 {
        return None;
    }
    let mut high = false;
    let mut skip_to = 0;
    for (i, c) in s.char_indices() {
        if i < skip_to {
            continue;
        }
        if c == '%' {
            let h = line.get(i + 1..i + 3)?;
            if !h
                .iter()
                .all(|x| x.is_ascii_digit() || (b'A'..=b'F').contains(x))
            {
                return None;
            }
            let v = u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()?;
            if v >= 0x80 {
                high = true;
            } else if classes::is(v, classes::UNRESERVED) {
                return None;
            }
            skip_to = i + 3;
        } else if c.is_ascii() {
            let b = c as u8;
            if matches!(b, b'[' | b']')
                || classes::is(b, classes::DISALLOWED_ASCII | classes::CONTROL)
            {
                return None;
            }
        } else if !super::to_iri::is_clean_char(c, false) {
            return None;
        }
    }
    Some(high)
}

/// Panics unless [`clean_line`] (the kernel, where the CPU runs it), the AVX2 kernel
/// (where the CPU has AVX2) and [`clean_line_scalar`] agree with their twin on `line` and on
/// each of its suffixes (every alignment), and so do [`raw_mark_on_unsafe_base`] and the
/// kernels' mark answers ([`clean_line_marks`]) with [`raw_mark_on_unsafe_base_naive`],
/// from the start, the middle, each of the first four characters and the end. For the fuzz
/// target `simd_twin` and the tests; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn clean_line_twin_check(line: &[u8]) {
    for k in 0..line.len().min(70) {
        let s = &line[k..];
        let want = clean_line_naive(s);
        let lossy = String::from_utf8_lossy(s);
        assert_eq!(clean_line(s), want, "{lossy:?}");
        assert_eq!(clean_line_scalar(s), want, "scalar: {lossy:?}");
        let t = std::str::from_utf8(s).ok();
        let mut froms = vec![usize::MAX];
        if let Some(t) = t {
            froms.extend(t.char_indices().map(|(p, _)| p).take(4));
            froms.extend(
                [t.len(), t.len() / 2]
                    .into_iter()
                    .filter(|&p| t.is_char_boundary(p)),
            );
        }
        for from in froms {
            // The naive answer where `s` is UTF-8 (a clean line is), else none to compare.
            let naive = t.map(|t| from < t.len() && raw_mark_on_unsafe_base_naive(t, from));
            if let Some(m) = naive {
                assert_eq!(
                    raw_mark_on_unsafe_base(s, from),
                    m,
                    "marks from {from}: {lossy:?}"
                );
            }
            let got = clean_line_marks(s, from);
            assert_eq!(got.map(|c| c.high), want, "{lossy:?}");
            if let Some(c) = got {
                assert_eq!(Some(c.mark), naive, "kernel's marks from {from}: {lossy:?}");
            }
            #[cfg(target_arch = "x86_64")]
            if clean_avx2::available() {
                // SAFETY: the kernel's feature (AVX2), detected just above.
                let got = unsafe { clean_avx2::clean_line(s, from) };
                assert_eq!(got.map(|(high, ..)| high), want, "AVX2: {lossy:?}");
                if let Some((_, dots, mark)) = got {
                    assert_eq!(dots, s.windows(2).any(|w| w == b"/."), "AVX2: {lossy:?}");
                    assert_eq!(Some(mark), naive, "AVX2's marks from {from}: {lossy:?}");
                }
            }
        }
    }
}

/// The line kernels' bitmap of three-byte blocks ([`blocks3_bitmap`]'s layout): the blocks
/// of 64 code points whose every code point is clean ([`super::to_iri::CLEAN_BMP`]).
///
/// [`blocks3_bitmap`]: crate::simd::x86_64::blocks3_bitmap
#[cfg(target_arch = "x86_64")]
fn clean_blocks3() -> [u8; 128] {
    let map = &super::to_iri::CLEAN_BMP[0];
    crate::simd::x86_64::blocks3_bitmap(|block| map[block as usize] == u64::MAX)
}

/// The AVX-512 kernel of [`clean_line`]: per 64-byte window, the ASCII stops by one
/// 128-entry lookup (`vpermi2b`) and the `#` by a count; in a window with a `%`, the two
/// bytes after each by the same lookup (upper-case hex digits and their values) and the
/// octet they give by a table of the unreserved characters; two-byte characters exactly, by a
/// bitmap of U+0080–U+07FF (two `vpermi2b` and a blend); three-byte characters by their block
/// of 64 code points when the whole block is clean (one `vpermi2b`: CJK, Hangul, most
/// scripts' letters), and the others, with the four-byte characters, looked up alone. The
/// model is `check`'s `scan_avx512::quiet_line`.
///
/// UTF-8 (RFC 3629 §4) on the way: continuation bytes must be exactly those each lead byte
/// announces (carried across windows; one announced past the line's end is a truncated
/// character), and the value ranges follow from the lookups: the overlong two-byte forms
/// (C0, C1) are unclean in the bitmap; an overlong three-byte form (E0 80–9F) falls in
/// blocks below U+0800 and a surrogate (ED A0–BF) in blocks without a character, which have
/// no bit, so they and every four-byte form are decoded strictly alone.
#[cfg(target_arch = "x86_64")]
mod clean_avx512 {
    use crate::grammar::classes;
    use crate::simd::x86_64::{lead_table_indices, window64, Window64};
    use core::arch::x86_64::*;
    use std::sync::OnceLock;

    /// Whether the CPU runs [`clean_line`].
    #[inline]
    pub(super) fn available() -> bool {
        crate::simd::x86_64::has_avx512_vbmi()
    }

    /// The window's lookup tables, each a whole number of 64-byte vectors.
    #[repr(C, align(64))]
    struct Tables {
        /// Byte `b` (ASCII): bit 7 when `b` ends the answer (`[`, `]`, printable ASCII
        /// outside IRIs, controls); bit 4 for an upper-case hex digit, with its value in
        /// bits 0–3.
        ascii: [u8; 128],
        /// Byte `v` (an ASCII octet): 0xFF when `v` is unreserved (RFC 3986 §2.3), which
        /// step 3 would decode from its `%HH`.
        unreserved: [u8; 128],
        /// Bit `cp & 7` of byte `cp >> 3` (U+0000–U+07FF): not clean (no two-byte form
        /// below U+0080 is UTF-8: those bits are set).
        unclean2: [u8; 256],
        /// Bit `b & 7` of byte `b >> 3`: every code point of block `b` (64 code points,
        /// U+0800 and up) is clean (none in the surrogates' blocks, which hold no character).
        clean3: [u8; 128],
    }

    /// Built on first use from `to_iri`'s bitmap of clean characters.
    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| {
            let map = &crate::convert::to_iri::CLEAN_BMP[0];
            let clean = |cp: u32| map[(cp >> 6) as usize] >> (cp & 63) & 1 != 0;
            let mut t = Tables {
                ascii: [0; 128],
                unreserved: [0; 128],
                unclean2: [0; 256],
                clean3: super::clean_blocks3(),
            };
            for b in 0..0x80u8 {
                if matches!(b, b'[' | b']')
                    || classes::is(b, classes::DISALLOWED_ASCII | classes::CONTROL)
                {
                    t.ascii[b as usize] = 0x80;
                }
                if b.is_ascii_digit() || (b'A'..=b'F').contains(&b) {
                    t.ascii[b as usize] = 0x10 | classes::hex_value(b).expect("hex");
                }
                if classes::is(b, classes::UNRESERVED) {
                    t.unreserved[b as usize] = 0xFF;
                }
            }
            for cp in 0..0x800u32 {
                if cp < 0x80 || !clean(cp) {
                    t.unclean2[(cp >> 3) as usize] |= 1 << (cp & 7);
                }
            }
            t
        })
    }

    /// [`super::clean_line`] of `b`, and [`super::raw_mark_on_unsafe_base`] of `b` from
    /// `from` (exact where the first answer is not `None`).
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI, and BMI2.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,bmi2")]
    pub(super) unsafe fn clean_line(b: &[u8], from: usize) -> Option<(bool, bool)> {
        let t = tables();
        let n = b.len();
        let set1 = |x: u8| _mm512_set1_epi8(x as i8);
        // SAFETY: the tables are 64-byte aligned (`Tables`) and whole vectors.
        let (a0, a1, r0, r1, u0, u1, u2, u3, c0, c1) = unsafe {
            let tv = |a: *const u8, i: usize| _mm512_load_si512(a.add(64 * i).cast());
            (
                tv(t.ascii.as_ptr(), 0),
                tv(t.ascii.as_ptr(), 1),
                tv(t.unreserved.as_ptr(), 0),
                tv(t.unreserved.as_ptr(), 1),
                tv(t.unclean2.as_ptr(), 0),
                tv(t.unclean2.as_ptr(), 1),
                tv(t.unclean2.as_ptr(), 2),
                tv(t.unclean2.as_ptr(), 3),
                tv(t.clean3.as_ptr(), 0),
                tv(t.clean3.as_ptr(), 1),
            )
        };
        // Continuation bytes the leads of the windows before announce in this one (bit i:
        // lane i), and the `#` seen so far.
        let mut carry = 0u64;
        let mut hashes = 0u32;
        let mut high_pct = false;
        // The mark rule's answer so far, and whether the byte before the window is
        // non-ASCII (bit 0).
        let (mut mark, mut before) = (false, 0u64);
        let mut i = 0;
        while i < n {
            let rem = n - i;
            let Window64 { lanes, v, next } = window64(b, i);
            let high = _mm512_movepi8_mask(v);
            // ASCII stops, by the byte's low seven bits (lanes past the end are zero: left
            // out).
            let ascii = _mm512_movepi8_mask(_mm512_permutex2var_epi8(a0, v, a1));
            if ascii & !high & lanes != 0 {
                return None;
            }
            hashes += _mm512_cmpeq_epi8_mask(v, set1(b'#')).count_ones();
            let pct = _mm512_cmpeq_epi8_mask(v, set1(b'%'));
            if pct != 0 {
                // The two bytes after each `%` (zero past the end: no hex digit).
                let next2 = if rem >= 2 {
                    let next2_lanes = _bzhi_u64(u64::MAX, (rem - 2).min(64) as u32);
                    // SAFETY: the lanes read are `b[i + 2..][..min(rem - 2, 64)]`, within `b`
                    // (`rem >= 2`: the pointer is at most one past its end).
                    unsafe { _mm512_maskz_loadu_epi8(next2_lanes, b.as_ptr().add(i + 2).cast()) }
                } else {
                    _mm512_setzero_si512()
                };
                let t1 = _mm512_permutex2var_epi8(a0, next, a1);
                let t2 = _mm512_permutex2var_epi8(a0, next2, a1);
                let hex = |t, x| _mm512_test_epi8_mask(t, set1(0x10)) & !_mm512_movepi8_mask(x);
                if pct & !(hex(t1, next) & hex(t2, next2)) != 0 {
                    return None;
                }
                let hi = _mm512_and_si512(t1, set1(0x0F));
                let octet =
                    _mm512_or_si512(_mm512_slli_epi16(hi, 4), _mm512_and_si512(t2, set1(0x0F)));
                let ascii_octet = _mm512_cmplt_epu8_mask(hi, set1(8));
                let unreserved = _mm512_movepi8_mask(_mm512_permutex2var_epi8(r0, octet, r1));
                if pct & ascii_octet & unreserved != 0 {
                    return None;
                }
                high_pct |= pct & !ascii_octet != 0;
            }
            let lead2 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, set1(0xC0)), set1(0x20));
            let lead3 = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, set1(0xE0)), set1(0x10));
            let lead4 = _mm512_cmpge_epu8_mask(v, set1(0xF0));
            // UTF-8's structure: the continuation bytes (80–BF) are exactly those announced
            // (a lane past the end is zero, no continuation: a character cut by the end
            // fails here, or by the carry after the last window).
            let cont = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(v, set1(0x80)), set1(0x40));
            let lead = lead2 | lead3 | lead4;
            let long = lead3 | lead4;
            if cont != lead << 1 | long << 2 | lead4 << 3 | carry {
                return None;
            }
            carry = lead >> 63 | long >> 62 | lead4 >> 61;
            let (bit, i2, i3) = lead_table_indices(v, next);
            let unclean2 = _mm512_mask_blend_epi8(
                _mm512_movepi8_mask(i2),
                _mm512_permutex2var_epi8(u0, i2, u1),
                _mm512_permutex2var_epi8(u2, i2, u3),
            );
            if lead2 & _mm512_test_epi8_mask(unclean2, bit) != 0 {
                return None;
            }
            let clean3 = _mm512_permutex2var_epi8(c0, i3, c1);
            // Looked up alone: three-byte characters of blocks that are not all clean, and
            // four-byte characters.
            let mut alone = lead3 & !_mm512_test_epi8_mask(clean3, bit) | lead4;
            while alone != 0 {
                let k = i + alone.trailing_zeros() as usize;
                alone &= alone - 1;
                match crate::grammar::pct::decode_utf8(&b[k..]) {
                    Some((c, _)) if crate::convert::to_iri::is_clean_char(c, false) => {}
                    _ => return None,
                }
            }
            if !mark && high != 0 {
                let starts = super::window_run_starts(high, before, i, from);
                mark = super::unsafe_mark_at(b, i, starts);
            }
            before = high >> 63;
            i += 64;
        }
        (carry == 0 && hashes <= 1).then_some((high_pct, mark))
    }
}

/// The AVX2 kernel of [`clean_line`] (issue 11: CPUs without AVX-512, where the scalar walk
/// was 42 % of normalize's instructions on `intl_cldr`), the AVX-512 kernel's rules in
/// 32-byte windows: the ASCII stops by [`crate::simd::delims::path_masks16`]'s compares, the
/// `#` by a count; UTF-8's structure by the same masks of lead and continuation bytes
/// (carried across windows); a two-byte character by its lead byte when its whole block of
/// 64 code points is clean (one `vpshufb` pair: Cyrillic, Latin-1 letters...), a
/// three-byte character by its block (a 128-byte bitmap of the blocks that are all clean,
/// eight `vpshufb`: CJK, Hangul, most scripts' letters), each other character looked up
/// alone in [`crate::convert::to_iri::CLEAN_BMP`] (four-byte ones decoded strictly, RFC
/// 3629 §4); in a window with a `%`, the two bytes after each: upper-case hex digits of an
/// octet that is not unreserved (a nibble table), at or above 0x80 for `high`.
///
/// UTF-8 (RFC 3629 §4) on the way: continuation bytes must be exactly those each lead byte
/// announces (a lane past the line's end is zero, no continuation: a character cut by the
/// end fails); the overlong two-byte forms (C0, C1) are in no clean block and below U+0080
/// alone; an overlong three-byte form is below U+0800 and a surrogate in blocks without a
/// character, neither with a bit, so both are refused; every four-byte form is decoded
/// alone. Twin: [`super::clean_line_naive`] (`clean_line_twin_check`).
#[cfg(target_arch = "x86_64")]
mod clean_avx2 {
    use crate::convert::to_iri::clean_char_len;
    use crate::simd::x86_64::{broadcast16 as bcast, load32, window32, Blocks3, LeadTable32};
    use core::arch::x86_64::*;
    use std::sync::OnceLock;

    /// Whether the CPU runs [`clean_line`].
    #[inline]
    pub(super) fn available() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
    }

    /// The window's lookup tables.
    struct Tables {
        /// Byte `b & 0x1F` of a two-byte lead `b`: 0xFF when every code point of its block
        /// (U+0080 and up, 64 code points) is clean; 0 for C0 and C1 (overlong forms).
        full2: [u8; 32],
        /// Bit `b & 7` of byte `b >> 3`: every code point of block `b` (64 code points, U+0800
        /// and up) is clean (none in the surrogates' blocks, which hold no character).
        clean3: [u8; 128],
        /// Byte `l`: bit `h` when the octet `h << 4 | l` (below 0x80) is unreserved (RFC
        /// 3986 §2.3), which step 3 would decode from its `%HH`.
        unreserved: [u8; 16],
    }

    /// Built on first use from `to_iri`'s bitmap of clean characters.
    fn tables() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| {
            let map = &crate::convert::to_iri::CLEAN_BMP[0];
            let mut t = Tables {
                full2: [0; 32],
                clean3: super::clean_blocks3(),
                unreserved: [0; 16],
            };
            for o in 0..0x80u8 {
                if crate::grammar::classes::is(o, crate::grammar::classes::UNRESERVED) {
                    t.unreserved[usize::from(o & 15)] |= 1 << (o >> 4);
                }
            }
            // Blocks 0 and 1 (U+0000–U+007F) are those of the overlong forms C0 and C1.
            for (block, &word) in map.iter().enumerate().take(32).skip(2) {
                if word == u64::MAX {
                    t.full2[block] = 0xFF;
                }
            }
            t
        })
    }

    /// Lane i: `1 << i` for i < 8, else 0: a `%HH`'s high nibble's bit in `unreserved`.
    static NIBBLE_BIT: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0];

    /// Whether the character whose lead byte is `b[k]` is clean outside the query: a two-
    /// or three-byte one by `clean_prefix`'s step ([`clean_char_len`]: strict UTF-8, a bit
    /// in `CLEAN_BMP`), a four-byte one (or an invalid lead) decoded strictly.
    #[inline]
    fn alone_clean(b: &[u8], k: usize) -> bool {
        clean_char_len(&b[k..], false) > 0
            || b[k] >= 0xF0
                && matches!(crate::grammar::pct::decode_utf8(&b[k..]),
                    Some((c, _)) if crate::convert::to_iri::is_clean_char(c, false))
    }

    /// [`super::clean_line_marks`] of `b`: [`super::clean_line`], whether a `/` is
    /// followed by a `.` in `b`, and [`super::raw_mark_on_unsafe_base`] of `b` from `from`
    /// (the last two exactly, where the answer is not `None`).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn clean_line(b: &[u8], from: usize) -> Option<(bool, bool, bool)> {
        let t = tables();
        let n = b.len();
        let set1 = |x: u8| _mm256_set1_epi8(x as i8);
        let full2 = LeadTable32::new(&t.full2);
        let clean3 = Blocks3::new(&t.clean3);
        let (unres, nibble_bit) = (bcast(&t.unreserved), bcast(&NIBBLE_BIT));
        let zero = _mm256_setzero_si256();
        // Unsigned `x <= c` per byte.
        let le = |x: __m256i, c: u8| _mm256_cmpeq_epi8(_mm256_min_epu8(x, set1(c)), x);
        let eq = |x: __m256i, c: u8| _mm256_cmpeq_epi8(x, set1(c));
        let mask = |x: __m256i| _mm256_movemask_epi8(x) as u32;
        // Upper-case hex digits (RFC 3987 §5.3.2.1: a lower-case one is not normal), and
        // their values.
        let hex = |x: __m256i| {
            _mm256_or_si256(
                le(_mm256_sub_epi8(x, set1(b'0')), 9),
                le(_mm256_sub_epi8(x, set1(b'A')), 5),
            )
        };
        let value = |x: __m256i| {
            let letter = _mm256_cmpgt_epi8(x, set1(b'9'));
            _mm256_sub_epi8(
                _mm256_sub_epi8(x, set1(b'0')),
                _mm256_and_si256(letter, set1(7)),
            )
        };
        // The last window's bytes and the two after them, zero-padded.
        let mut last = [0; 34];
        let mut high_pct = false;
        let mut slash_dot = false;
        // Continuation bytes the leads of the windows before announce in this one (bit i:
        // lane i), and the `#` seen so far.
        let mut carry = 0u64;
        let mut hashes = 0u32;
        // The mark rule's answer so far, and whether the byte before the window is
        // non-ASCII (bit 0).
        let (mut mark, mut before) = (false, 0u64);
        let mut i = 0;
        while i < n {
            // The window and the window one byte on (`next`); two bytes on where a `%` is.
            let (w, lanes) = window32(b, i, &mut last);
            let load = |k: usize| load32(w, k);
            let (v, next) = (load(0), load(1));
            // ASCII stops (`path_masks16`'s compares: below 0x21 as signed bytes is the
            // controls, the space and every byte at or above 0x80; 0x7B–0x7F but `~`;
            // `[ \ ] ^`; `"`, `<`, `>` and the backquote); lanes past the end (zero) are
            // left out.
            let low = _mm256_cmpgt_epi8(set1(0x21), v);
            let high = _mm256_andnot_si256(eq(v, b'~'), _mm256_cmpgt_epi8(v, set1(0x7A)));
            let mid = le(_mm256_sub_epi8(v, set1(0x5B)), 3);
            let single = _mm256_or_si256(
                _mm256_or_si256(eq(v, b'"'), eq(v, b'<')),
                _mm256_or_si256(eq(v, b'>'), eq(v, b'`')),
            );
            let bad = _mm256_or_si256(_mm256_or_si256(low, high), _mm256_or_si256(mid, single));
            let nonascii = mask(v);
            if mask(bad) & !nonascii & lanes != 0 {
                return None;
            }
            let before_window = before;
            before = u64::from(nonascii >> 31);
            let pct = mask(eq(v, b'%')) & lanes;
            if pct != 0 {
                // Each `%` starts a `%HH` of upper-case digits (zero past the end: no digit)
                // of no unreserved octet; the digits themselves are ASCII letters and digits,
                // which stop nothing here.
                let next2 = load(2);
                if pct & !(mask(hex(next)) & mask(hex(next2))) != 0 {
                    return None;
                }
                let (hi, lo) = (value(next), value(next2));
                let unreserved = _mm256_and_si256(
                    _mm256_shuffle_epi8(unres, lo),
                    _mm256_shuffle_epi8(nibble_bit, hi),
                );
                if pct & !mask(_mm256_cmpeq_epi8(unreserved, zero)) != 0 {
                    return None;
                }
                // An octet at or above 0x80: bit 3 of the high digit's value, to bit 7.
                high_pct |= pct & mask(_mm256_slli_epi16(hi, 4)) != 0;
            }
            hashes += (mask(eq(v, b'#')) & lanes).count_ones();
            if hashes > 1 {
                return None;
            }
            // A `/` and a `.` after it (zero past the end: none).
            slash_dot |= mask(eq(v, b'/')) & mask(eq(next, b'.')) & lanes != 0;
            if nonascii == 0 && carry == 0 {
                i += 32;
                continue;
            }
            // UTF-8's structure: the continuation bytes (80–BF) are exactly those announced.
            let cont = mask(le(_mm256_sub_epi8(v, set1(0x80)), 0x3F));
            let lead2 = mask(le(_mm256_sub_epi8(v, set1(0xC0)), 0x1F));
            let lead3 = mask(le(_mm256_sub_epi8(v, set1(0xE0)), 0x0F));
            let lead4 = mask(_mm256_cmpeq_epi8(_mm256_max_epu8(v, set1(0xF0)), v));
            let (l2, l3, l4) = (u64::from(lead2), u64::from(lead3), u64::from(lead4));
            let long = l3 | l4;
            let want = (l2 | long) << 1 | long << 2 | l4 << 3 | carry;
            if want as u32 != cont {
                return None;
            }
            carry = want >> 32;
            // Characters looked up alone: four-byte ones, and those of blocks not all clean.
            let mut alone = lead4;
            if lead2 != 0 {
                alone |= lead2 & !mask(full2.get(v));
            }
            if lead3 != 0 {
                alone |= lead3 & mask(_mm256_cmpeq_epi8(clean3.bit(v, next), zero));
            }
            while alone != 0 {
                let k = i + alone.trailing_zeros() as usize;
                alone &= alone - 1;
                if !alone_clean(b, k) {
                    return None;
                }
            }
            if !mark && nonascii != 0 {
                let starts = super::window_run_starts(u64::from(nonascii), before_window, i, from);
                mark = super::unsafe_mark_at(b, i, starts);
            }
            i += 32;
        }
        (carry == 0).then_some((high_pct, slash_dot, mark))
    }
}

/// Issue #11: what steps 0–9 give for a line on which they count nothing, under
/// [`Normalizer::takes_quick_form`]'s options, proved without step 0's conversion
/// ([`Quick::Same`] or [`Quick::ToIri`]; `None`: ask the steps): a
/// crawl line (`https://` or `http://`, lower case, RFC 3986 §3.1, §6.2.2.1; an authority of
/// a reg-name host alone, in `unreserved`, `sub-delims` and non-ASCII characters:
/// [`validate::crawl_authority`]) that [`clean_line`] accepts whole: UTF-8 (RFC 3987 §3.1
/// step 1c), no ASCII outside IRIs, no control, every `%` a `%HH` (RFC 3986 §2.1), no `[`
/// or `]` after the authority (§3.2.2), at most one `#` (§3.5), and only characters to-iri
/// writes as they are, which are `iunreserved` and draw no warning (RFC 3987 §2.2, §4.1).
/// Step 0 (to-uri, `--host percent`) then finds nothing to report, repair or warn about;
/// the rest is [`quick_iri_form`]'s rules for such a line: a US-ASCII host without
/// capitals, no dot segment in the path, upper-case `%HH` of no
/// unreserved character; step 9 gives the line back, or to-iri's form of it when a `%HH`
/// is of a non-ASCII octet. The tests of
/// `tests/normalize_quick.rs` compare the normalizer with its twin on every data set, code
/// point and random lines.
///
/// With `scheme_level` (`--level scheme`, [`Normalizer::takes_quick_crawl_scheme`]) the host
/// must also be a lower-case LDH name ([`is_ldh_host`]) and the path not empty.
///
/// A non-ASCII host still goes through step 0's IDNA ([`Normalizer::quick_crawl`], which
/// the normalizer asks instead; this stays for the tests of the shape alone).
#[cfg(test)]
fn quick_crawl_line(line: &[u8], scheme_level: bool, quiet: &mut Vec<u8>) -> Option<Quick> {
    let (a0, end, wide) = validate::crawl_authority(line)?;
    quick_crawl_tail(line, a0, end, wide, scheme_level, quiet)
}

/// [`quick_crawl_line`] of a line of [`validate::crawl_authority`]'s shape whose answer it
/// was (authority `a0..end`, `wide` when it holds a non-ASCII byte).
///
/// A line [`clean_line`] declines only for quiet characters after its authority
/// ([`is_quiet_char`]: zero-width spaces and joiners, full-width delimiters...; 1.6 % of
/// `intl_cldr`'s lines, which cost 15 % of normalize's instructions through steps 0–9, issue
/// 11) is answered as the line `quiet` with those characters percent-encoded
/// ([`encode_quiet_tail`], [`Quick::ToIriQuiet`]): steps 0–9 give the same for both lines.
/// Step 0 has nothing to report for such a character (RFC 3987 §2.2, §4.1: `ucschar`, no
/// C1 control or bidi formatting character), step 3 keeps it raw (§3.1: it is
/// `iunreserved`), step 8 percent-encodes it (§3.1 step 2) as `quiet` does (upper-case
/// hex, §5.3.2.1), and step 9 keeps that encoded (§3.2 step 4: not displayable), where the
/// rest of the line is as before; no step looks across it (a `%HH` of a non-ASCII octet
/// makes no delimiter or dot segment, RFC 3986 §2.2, §5.2.4). `quiet` then passes
/// [`clean_line`] with a `%HH` of a non-ASCII octet.
fn quick_crawl_tail(
    line: &[u8],
    a0: usize,
    end: usize,
    wide: bool,
    scheme_level: bool,
    quiet: &mut Vec<u8>,
) -> Option<Quick> {
    let host = &line[a0..end];
    if scheme_level && (wide || !is_ldh_host(host) || line.get(end) != Some(&b'/')) {
        return None;
    }
    // `quiet` has the line's `/.` pairs: an encoded character is neither.
    let (clean, encoded) = match clean_line_marks(line, end) {
        Some(answer) => (answer, false),
        None => {
            if !encode_quiet_tail(line, end, quiet) {
                return None;
            }
            (clean_line_marks(quiet, usize::MAX)?, true)
        }
    };
    let CleanLine { high, dots, mark } = clean;
    let tail = &line[end..];
    // An ASCII host's capitals (`host_case_and_dashes`, exact on ASCII); a Unicode host keeps
    // its case; at `--level scheme` `is_ldh_host` above has excluded them.
    let upper = !scheme_level && !wide && host_case_and_dashes(host).0;
    // A raw combining mark on a delimiter after the authority (issue 16): the kernel's
    // answer on the line itself; of a line whose quiet characters were encoded, asked last.
    let steps_change_it = upper || dots && tail_path_has_dot_segment(tail);
    let normal = !steps_change_it
        && !(if encoded {
            raw_mark_on_unsafe_base(line, end)
        } else {
            mark
        });
    normal.then_some(if encoded {
        Quick::ToIriQuiet
    } else if high {
        Quick::ToIri
    } else {
        Quick::Same
    })
}

/// True when `octets` (a host's, `%HH` decoded: [`host::host_octets`]) hold a non-ASCII UTF-8
/// sequence (RFC 3629 §4), which to-iri decodes (RFC 3987 §3.2 step 2) while keeping the other
/// octets encoded.
fn has_utf8_sequence(octets: &[u8]) -> bool {
    let mut k = 0;
    while k < octets.len() {
        match decode_utf8(&octets[k..]) {
            Some((c, _)) if !c.is_ascii() => return true,
            Some((_, len)) => k += len,
            None => k += 1,
        }
    }
    false
}

/// True for a non-ASCII character that steps 0–9 write percent-encoded wherever it stands
/// after the authority, with nothing to report (see [`quick_crawl_tail`]): an IRI character
/// outside the query ([`is_iri_char`], RFC 3987 §2.2, §4.1; also one inside it) that is not
/// displayable ([`is_displayable`], §3.2 step 4: white space, invisible characters, those
/// whose NFKC holds a delimiter). The test `quiet_characters_are_quiet_in_the_query_too`
/// holds the two contexts to each other.
#[inline]
fn is_quiet_char(c: char) -> bool {
    is_iri_char(c, false) && !is_displayable(c, false)
}

/// Writes `line` to `y` with each quiet character ([`is_quiet_char`]) after `end` (the
/// authority's end) percent-encoded in upper-case hex (RFC 3986 §2.1, RFC 3987 §5.3.2.1).
/// True when it encoded one and every other non-ASCII character after `end` is strict UTF-8
/// (RFC 3629 §4) and clean ([`super::to_iri::is_clean_char`]), and no combining mark follows
/// an encoded one; false (with `y` unspecified) otherwise. Only [`clean_line`]'s rejects come here.
fn encode_quiet_tail(line: &[u8], end: usize, y: &mut Vec<u8>) -> bool {
    y.clear();
    y.extend_from_slice(&line[..end]);
    let tail = &line[end..];
    let (mut k, mut run, mut any) = (0, 0, false);
    while k < tail.len() {
        if tail[k] < 0x80 {
            k += 1;
            continue;
        }
        let clean = super::to_iri::clean_prefix(&tail[k..], false);
        if clean > 0 {
            k += clean;
            continue;
        }
        let Some((c, len)) = decode_utf8(&tail[k..]) else {
            return false;
        };
        if !super::to_iri::is_clean_char(c, false) {
            if !is_quiet_char(c) {
                return false;
            }
            // A combining mark right after it would sit on the `%HH` (issue 16): step 9
            // keeps it encoded ([`host::display::mark_base_unsafe`]); the full steps write it.
            if tail.get(k + len).is_some_and(|&b| b >= 0x80)
                && host::display::starts_with_mark(&tail[k + len..])
            {
                return false;
            }
            y.extend_from_slice(&tail[run..k]);
            push_pct_all(y, &tail[k..k + len]);
            run = k + len;
            any = true;
        }
        k += len;
    }
    y.extend_from_slice(&tail[run..]);
    any
}

/// [`has_dot_segment`] of the path at the start of `tail` (up to its first `?` or `#`, RFC
/// 3986 §3.3), any bytes, in one pass of 16-byte blocks: the path's end and the `.` right
/// after a `/` (or at the start) by one SSE2 compare each ([`crate::simd::delims::eq_masks16`]),
/// each such `.` then looked at closely. It replaced a `memchr2` for the path's end and a
/// `memchr` walk of its dots (~9 % of normalize's instructions on `intl_cldr` without
/// AVX-512, issue 11). Twin: [`tail_path_has_dot_segment_naive`].
fn tail_path_has_dot_segment(tail: &[u8]) -> bool {
    let seg_end = |k: usize| matches!(tail.get(k), None | Some(b'/' | b'?' | b'#'));
    // A `.` at 0 starts a segment: as if a `/` came before it.
    let mut carry = 1u32;
    let mut i = 0;
    while i < tail.len() {
        let block = match tail[i..].first_chunk::<16>() {
            Some(b) => *b,
            None => crate::simd::padded::<16>(&tail[i..]),
        };
        let [dot, slash, query, hash] =
            crate::simd::delims::eq_masks16(&block, [b'.', b'/', b'?', b'#']);
        let stop = query | hash;
        // The bits before the path's end, when it is in this block.
        let inside = (stop & stop.wrapping_neg()).wrapping_sub(1);
        let mut cand = dot & (slash << 1 | carry) & inside;
        while cand != 0 {
            let k = i + cand.trailing_zeros() as usize;
            if seg_end(k + 1) || (tail.get(k + 1) == Some(&b'.') && seg_end(k + 2)) {
                return true;
            }
            cand &= cand - 1;
        }
        if stop != 0 {
            return false;
        }
        carry = slash >> 15 & 1;
        i += 16;
    }
    false
}

/// Panics unless [`tail_path_has_dot_segment`] agrees with its twin on `tail` and on each of
/// its suffixes (every alignment). For the fuzz target `simd_twin`; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn tail_dot_twin_check(tail: &[u8]) {
    for k in 0..tail.len().min(70) {
        let t = &tail[k..];
        assert_eq!(
            tail_path_has_dot_segment(t),
            tail_path_has_dot_segment_naive(t),
            "{:?}",
            String::from_utf8_lossy(t)
        );
    }
}

/// The twin of [`tail_path_has_dot_segment`]: the path cut at the first `?` or `#`, then
/// [`has_dot_segment`].
#[cfg(any(test, feature = "twins"))]
fn tail_path_has_dot_segment_naive(tail: &[u8]) -> bool {
    let end = tail
        .iter()
        .position(|&b| b == b'?' || b == b'#')
        .unwrap_or(tail.len());
    has_dot_segment(&tail[..end])
}

/// Lines with characters normalize's crawl pass percent-encodes ([`is_quiet_char`]:
/// zero-width, invisible, full-width ones) or must leave to steps 0–9 (a bidi mark or
/// override, private use, a C1 control, look-alikes of delimiters, a tag), alone, before,
/// after and between clean and encoded text, delimiters and dot segments, in the path, the
/// query and the fragment, after hosts with and without one of them or a capital (issue 11).
/// For the tests that compare the crawl pass with its twins; not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn quiet_test_lines(mut f: impl FnMut(&[u8])) {
    let chars = [
        "\u{200B}",
        "\u{200C}",
        "\u{200D}",
        "\u{3000}",
        "\u{FF0F}",
        "\u{2060}",
        "\u{FEFF}",
        "\u{AD}",
        "\u{A0}",
        "\u{1D173}",
        "\u{200F}",
        "\u{202E}",
        "\u{E000}",
        "\u{85}",
        "\u{30CE}",
        "\u{660}",
        "\u{E0001}",
    ];
    let others = [
        "a",
        "é",
        "日本",
        "%C3%A9",
        "%E2%80%8B",
        "%e2%80%8b",
        "/",
        "?",
        "#",
        ".",
        "/./",
        "%41",
        " ",
        "\u{1F600}",
        "\u{30CE}",
    ];
    for h in ["example.com", "bücher.de", "a\u{200B}b.com", "Ex.com"] {
        for c in chars {
            for o in others {
                for line in [
                    format!("https://{h}/{c}"),
                    format!("https://{h}/x{c}{o}"),
                    format!("https://{h}/{o}{c}?q"),
                    format!("http://{h}/p?{c}{o}"),
                    format!("https://{h}/p#{o}{c}"),
                    format!("https://{h}/{c}{o}{c}/{o}"),
                ] {
                    f(line.as_bytes());
                }
            }
        }
    }
}

/// What [`quick_iri_form`] answers for `line` with no split from step 0 (`"same"`,
/// `"to-iri"` or `"full"`), for the test that it serves most lines of a data set. Meaningful
/// only for a line that step 0 accepts without a repair. Not part of the API.
#[cfg(any(test, feature = "twins"))]
#[doc(hidden)]
pub fn quick_form_kind(line: &[u8]) -> &'static str {
    match quick_iri_form(line, None) {
        Quick::Same => "same",
        Quick::ToIri => "to-iri",
        Quick::Full | Quick::ToIriQuiet => "full",
    }
}

/// The decoder's table of hex digit values ([`crate::simd::hex::HEX_VALUE`]) without the
/// lower-case digits (0xFF there, as for every byte that is no digit): step 3 upper-cases
/// them (RFC 3987 §5.3.2.1), so a `%HH` with one is not normal. One lookup per digit on
/// [`quick_component`]'s run of triplets (a second compare for the case cost 3 % of
/// normalize's instructions on percent-encoded text).
static UPPER_HEX_VALUE: [u8; 256] = {
    let mut t = crate::simd::hex::HEX_VALUE;
    let mut b = b'a' as usize;
    while b <= b'f' as usize {
        t[b] = 0xFF;
        b += 1;
    }
    t
};

/// One component for [`quick_iri_form`] (step 3's conditions): `None` if a step may change
/// it, else whether it holds a `%HH` of an octet at or above 0x80 (which step 9 may decode).
/// `s` is a validated component: UTF-8, every `%` starts a `%HH`.
fn quick_component(s: &[u8], in_query: bool) -> Option<bool> {
    quick_walk::<false>(s, in_query)
}

/// [`quick_component`] (`LINE` false), or with `LINE` the walk of [`clean_line_scalar`]:
/// also `None` at a second `#` or at a `[` or `]`.
#[inline(always)]
fn quick_walk<const LINE: bool>(s: &[u8], in_query: bool) -> Option<bool> {
    let mut high = false;
    let mut hashes = 0u32;
    let mut k = 0;
    while k < s.len() {
        // Sixteen bytes at a time up to the next byte that is not a URI character (non-ASCII,
        // controls, space and the printable ASCII outside URIs; `[`, `]`) or `%`, and `#`
        // for a line ([`crate::simd::delims::path_masks16`], SSE2).
        if let Some(b16) = s[k..].first_chunk::<16>() {
            let (bad, pct, hash) = crate::simd::delims::path_masks16(b16);
            let stops = bad | pct | if LINE { hash } else { 0 };
            if stops == 0 {
                k += 16;
                continue;
            }
            k += stops.trailing_zeros() as usize;
        }
        let b = s[k];
        if b >= 0x80 {
            // Clean two- and three-octet characters (and unreserved ASCII after them), a
            // few instructions per octet; then one character by the rule itself.
            let clean = super::to_iri::clean_prefix(&s[k..], in_query);
            if clean > 0 {
                k += clean;
                continue;
            }
            let (c, len) = decode_utf8(&s[k..])?;
            if !super::to_iri::is_clean_char(c, in_query) {
                return None;
            }
            k += len;
        } else if b == b'%' {
            // The whole run of triplets (percent-encoded text is runs of them: a URI's
            // non-ASCII words), each by one table, before the next 16-byte block: one
            // block's masks per triplet were most of normalize's instructions on
            // `intl_cldr`'s URIs where no AVX-512 line pass runs (issue 11; callgrind).
            loop {
                let (&hi, &lo) = (s.get(k + 1)?, s.get(k + 2)?);
                let (h, l) = (UPPER_HEX_VALUE[hi as usize], UPPER_HEX_VALUE[lo as usize]);
                if (h | l) & 0xF0 != 0 {
                    return None;
                }
                let v = h << 4 | l;
                if v < 0x80 {
                    if classes::is(v, classes::UNRESERVED) {
                        return None;
                    }
                } else {
                    high = true;
                }
                k += 3;
                if s.get(k) != Some(&b'%') {
                    break;
                }
            }
        } else if classes::is(b, classes::DISALLOWED_ASCII | classes::CONTROL)
            || LINE && matches!(b, b'[' | b']')
        {
            return None;
        } else {
            if LINE && b == b'#' {
                hashes += 1;
                if hashes > 1 {
                    return None;
                }
            }
            k += 1;
        }
    }
    Some(high)
}

/// True if `path` has a complete segment `.` or `..` (RFC 3986 §3.3), which
/// `remove_dot_segments` (§5.2.4) would remove. Any bytes.
fn has_dot_segment(path: &[u8]) -> bool {
    memchr::memchr_iter(b'.', path).any(|k| {
        (k == 0 || path[k - 1] == b'/')
            && matches!(&path[k + 1..], [] | [b'/', ..] | [b'.'] | [b'.', b'/', ..])
    })
}

/// The display decision of [`Normalizer::push_unicode_host`] for the lower-case ACE form
/// `ace` whose ToUnicode is `u`: the form to show, or `None` to keep `ace`. Display safety
/// (issue 16, UTS #39): unsafe labels stay in their xn-- form; every character displayable;
/// ToASCII of the result gives `ace` back up to ASCII case (IDNA2003 keeps the case of ASCII
/// labels, RFC 3490 §4.1 step 8; ASCII case is not significant in a host, RFC 3986 §3.2.2),
/// and so does UTS #46's with `--host idna2003` ([`host::display_maps_back`]).
fn present_host(ace: &str, u: String, idna: Idna) -> Option<String> {
    let u = host::display::display_host(ace, &u).filter(|u| u != ace)?;
    let displayable = u.chars().all(|c| c.is_ascii() || is_displayable(c, false));
    (displayable && host::display_maps_back(&u, ace, idna, false)).then_some(u)
}

/// True if `c` may appear raw in an IRI (RFC 3987 §2.2 `ucschar`, `iprivate` in the query; no
/// bidi formatting character, §4.1; no C1 control).
#[inline]
fn is_iri_char(c: char, in_query: bool) -> bool {
    !is_c1(c) && !is_bidi_format(c) && (is_ucschar(c) || (in_query && is_iprivate(c)))
}

/// The byte steps of step 3 on a validated component: percent rung, hex case, and output
/// validity. `s` is UTF-8 and every `%` in it starts a `%HH` (validation).
fn byte_steps(s: &[u8], part: Component, rungs: Rungs, dst: &mut Vec<u8>) {
    dst.reserve(s.len());
    let n = s.len();
    let mut run = 0;
    let mut i = 0;
    while i < n {
        let b = s[i];
        if b == b'%' && i + 2 < n {
            let (hi, lo) = (s[i + 1], s[i + 2]);
            let v = classes::hex_value(hi).unwrap_or(0) << 4 | classes::hex_value(lo).unwrap_or(0);
            if rungs.percent && classes::is(v, classes::UNRESERVED) {
                // §5.3.2.3: decode unreserved.
                dst.extend_from_slice(&s[run..i]);
                dst.push(v);
                i += 3;
                run = i;
            } else if rungs.case && (hi.is_ascii_lowercase() || lo.is_ascii_lowercase()) {
                // §5.3.2.1: upper-case hex digits.
                dst.extend_from_slice(&s[run..i]);
                dst.extend_from_slice(&[
                    b'%',
                    HEX_UPPER[(v >> 4) as usize],
                    HEX_UPPER[(v & 15) as usize],
                ]);
                i += 3;
                run = i;
            } else {
                i += 3;
            }
        } else if b < 0x80 {
            if classes::is(b, classes::DISALLOWED_ASCII) {
                dst.extend_from_slice(&s[run..i]);
                push_pct(dst, b);
                run = i + 1;
            }
            i += 1;
        } else {
            let (c, len) = decode_utf8(&s[i..]).expect("validated UTF-8");
            if !is_iri_char(c, part == Component::Query) {
                dst.extend_from_slice(&s[run..i]);
                push_pct_all(dst, &s[i..i + len]);
                run = i + len;
            }
            i += len;
        }
    }
    dst.extend_from_slice(&s[run..]);
}

/// Hex digits of a reg-name host's `%HH` to upper case and, if `letters` (a US-ASCII-only
/// host, RFC 3987 §5.3.2.1), its ASCII letters to lower case.
fn lower_host(h: &mut [u8], letters: bool) {
    let mut i = 0;
    while i < h.len() {
        if h[i] == b'%' && i + 2 < h.len() {
            h[i + 1].make_ascii_uppercase();
            h[i + 2].make_ascii_uppercase();
            i += 3;
        } else {
            if letters {
                h[i].make_ascii_lowercase();
            }
            i += 1;
        }
    }
}

/// One member of a run of [`normalize_runs`] at the start of `s`: the character and how many
/// bytes it takes, and whether it was percent-encoded. `None` at a boundary.
///
/// Members are ASCII letters and digits (raw), and the `iunreserved` non-ASCII characters
/// (RFC 3987 §2.2 `ucschar` that is allowed raw in every component: no bidi formatting
/// character, no C1 control; [`is_iri_char`] outside the query), raw or as the `%HH` of their
/// whole UTF-8 sequence (§5.3.2.3: a percent-encoded `iunreserved` character is that
/// character, so §5.3.2.2 applies to it too). Everything else is a boundary: other ASCII, a
/// `%HH` of ASCII or of a character that is not `iunreserved` (private use, bidi formatting,
/// non-`ucschar`), and octets that are not UTF-8.
fn run_member(s: &[u8]) -> Option<(char, usize, bool)> {
    let b = s[0];
    if b.is_ascii_alphanumeric() {
        return Some((b as char, 1, false));
    }
    let (c, len, encoded) = if b >= 0x80 {
        let (c, len) = decode_utf8(s)?;
        (c, len, false)
    } else if b == b'%' {
        let octet = |k: usize| -> Option<u8> {
            let t = s.get(3 * k..3 * k + 3)?;
            if t[0] != b'%' {
                return None;
            }
            Some(classes::hex_value(t[1])? << 4 | classes::hex_value(t[2])?)
        };
        let lead = octet(0)?;
        let n = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return None,
        };
        let mut bytes = [0u8; 4];
        for (k, slot) in bytes.iter_mut().enumerate().take(n) {
            *slot = octet(k)?;
        }
        let (c, len) = decode_utf8(&bytes[..n])?;
        (c, 3 * len, true)
    } else {
        return None;
    };
    is_iri_char(c, false).then_some((c, len, encoded))
}

/// Character normalization (§5.3.2.2) of each run of `s` (module docs), appended to `dst`.
///
/// A run is a maximal sequence of [`run_member`]s, raw or percent-encoded: `re%CC%81sume%CC%81`
/// and `re\u{301}sume\u{301}` hold the same run, so they normalize alike. A run that the form
/// leaves as it is is copied byte for byte. A run that changes is written with its ASCII
/// letters and digits raw and its other characters raw if none of the run was percent-encoded,
/// else all percent-encoded (uppercase hex): the form never decodes a character that was
/// encoded (what must stay encoded for display, issue #16, stays so), and a second pass finds
/// the same run, already normalized.
fn normalize_runs(s: &[u8], form: Form, text: &mut String, buf: &mut String, dst: &mut Vec<u8>) {
    let n = s.len();
    let mut i = 0;
    while i < n {
        let Some(first) = run_member(&s[i..]) else {
            // A boundary: one ASCII character, one %HH, or one character that is not
            // `iunreserved` (copied whole).
            let len = match s[i] {
                b'%' => 3.min(n - i),
                b if b < 0x80 => 1,
                _ => decode_utf8(&s[i..]).map_or(1, |(_, l)| l),
            };
            dst.extend_from_slice(&s[i..i + len]);
            i += len;
            continue;
        };
        let start = i;
        text.clear();
        let mut encoded = false;
        let mut m = Some(first);
        while let Some((c, len, enc)) = m {
            text.push(c);
            encoded |= enc;
            i += len;
            m = if i < n { run_member(&s[i..]) } else { None };
        }
        if text.is_ascii() || !normalize_run(text, form, buf) {
            dst.extend_from_slice(&s[start..i]);
        } else if encoded {
            let mut utf8 = [0u8; 4];
            for c in buf.chars() {
                if c.is_ascii() {
                    dst.push(c as u8);
                } else {
                    push_pct_all(dst, c.encode_utf8(&mut utf8).as_bytes());
                }
            }
        } else {
            dst.extend_from_slice(buf.as_bytes());
        }
    }
}

/// One run: NFKC, else NFC, else as it is — the first whose result holds only run members
/// (ASCII letters and digits, `iunreserved` non-ASCII: NFC maps U+037E to `;`, NFKC maps
/// U+FF0F to `/`, U+2024 to `.`, U+2474 to `(1)`, and a run never gains a delimiter). Returns
/// true, with the result in `buf`, when the run changes.
fn normalize_run(run: &str, form: Form, buf: &mut String) -> bool {
    let ok = |t: &str| {
        t.chars()
            .all(|c| c.is_ascii_alphanumeric() || (!c.is_ascii() && is_iri_char(c, false)))
    };
    if form == Form::Nfkc {
        if unicode_normalization::is_nfkc(run) {
            return false;
        }
        buf.clear();
        buf.extend(run.nfkc());
        if ok(buf) {
            return true;
        }
    }
    let nfc_changed = if unicode_normalization::is_nfc(run) {
        false
    } else {
        buf.clear();
        buf.extend(run.nfc());
        ok(buf)
    };
    if form == Form::Nfkc {
        // The run's NFC form (what NFC writes of it), by pieces: NFKC between the
        // characters that NFKC turns into something else than run members, those kept as
        // they are (a QA sweep: `ｂ！` kept its `ｂ` whole, since `！` is `!` in NFKC, while
        // `ｂ-！` gave `b-！`).
        let base = if nfc_changed {
            std::mem::take(buf)
        } else {
            run.to_owned()
        };
        if let Some(pieces) = nfkc_between_breakers(&base, ok) {
            if pieces != run {
                *buf = pieces;
                return true;
            }
            return false;
        }
        if nfc_changed {
            *buf = base;
        }
    }
    nfc_changed
}

/// NFKC of `text` (in NFC) piece by piece, between the characters whose own NFKC is not all
/// run members (`ok`), which are kept as they are; `None` when the result is not in NFC or
/// not all run members, so that a second pass finds the same pieces (idempotence) and the
/// result depends on the NFC form alone (normalize_ladder's "only merges": two runs that NFC
/// makes equal are made equal here).
fn nfkc_between_breakers(text: &str, ok: impl Fn(&str) -> bool) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut piece = String::new();
    let mut one = String::new();
    for c in text.chars() {
        one.clear();
        one.extend(std::iter::once(c).nfkc());
        if ok(&one) {
            piece.push(c);
        } else {
            out.extend(piece.nfkc());
            piece.clear();
            out.push(c);
        }
    }
    out.extend(piece.nfkc());
    (unicode_normalization::is_nfc(&out) && ok(&out)).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(rungs: Rungs, s: &str) -> String {
        let mut n = Normalizer::new(NormalizeOptions {
            rungs,
            ..NormalizeOptions::default()
        });
        let mut out = Vec::new();
        n.convert_or_copy_into(s.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn userinfo_is_never_character_normalized() {
        for rungs in [
            Rungs {
                nfc: true,
                ..Rungs::default()
            },
            Rungs {
                nfkc: true,
                ..Rungs::default()
            },
        ] {
            assert_eq!(
                norm(rungs, "foo://e\u{301}:\u{2168}@h/\u{2168}e\u{301}"),
                if rungs.nfkc {
                    "foo://e\u{301}:\u{2168}@h/IX\u{e9}"
                } else {
                    "foo://e\u{301}:\u{2168}@h/\u{2168}\u{e9}"
                }
            );
            assert_eq!(
                norm(rungs, "https://e%CC%81@x.org/"),
                "https://e%CC%81@x.org/"
            );
        }
    }

    #[test]
    fn runs_never_cross_delimiters() {
        let nfc = Rungs {
            nfc: true,
            ..Rungs::default()
        };
        assert_eq!(norm(nfc, "/e\u{301}"), "/\u{e9}");
        assert_eq!(norm(nfc, "/a=\u{338}"), "/a=\u{338}", "= U+0338 is not ≠");
        assert_eq!(
            norm(nfc, "/%4E\u{303}"),
            "/%4E\u{303}",
            "%HH is one boundary"
        );
        assert_eq!(norm(nfc, "/a\u{37e}"), "/a\u{37e}", "NFC would give ';'");
        let nfkc = Rungs {
            nfkc: true,
            ..Rungs::default()
        };
        assert_eq!(norm(nfkc, "/\u{FB01}x"), "/fix");
        assert_eq!(
            norm(nfkc, "/a\u{FF0F}b"),
            "/a\u{FF0F}b",
            "NFKC would give '/'"
        );
        assert_eq!(
            norm(nfkc, "/\u{2024}\u{2024}"),
            "/\u{2024}\u{2024}",
            "no new dots"
        );
        assert_eq!(
            norm(nfkc, "/\u{FF0F}e\u{301}"),
            "/\u{FF0F}\u{e9}",
            "falls back to NFC"
        );
    }

    #[test]
    fn ports() {
        let s = Rungs {
            scheme: true,
            ..Rungs::default()
        };
        assert_eq!(norm(s, "http://a:0080"), "http://a/");
        assert_eq!(norm(s, "http://a:0081/"), "http://a:81/");
        assert_eq!(norm(s, "http://a:000/"), "http://a:0/");
        assert_eq!(norm(s, "foo://a:/"), "foo://a/");
        assert_eq!(norm(s, "foo://a:080/"), "foo://a:080/");
        assert_eq!(norm(s, "HTTPS://a:443?q"), "HTTPS://a/?q");
    }

    #[test]
    fn byte_steps_each_rung() {
        let mut v = Vec::new();
        let p = Rungs {
            percent: true,
            ..Rungs::default()
        };
        byte_steps(b"%7e%2f%41 \xE2\x80\xAE", Component::Path, p, &mut v);
        assert_eq!(v, b"~%2fA%20%E2%80%AE");
        v.clear();
        let c = Rungs {
            case: true,
            ..Rungs::default()
        };
        byte_steps(b"%7e%2f%41", Component::Path, c, &mut v);
        assert_eq!(v, b"%7E%2F%41");
        v.clear();
        byte_steps("\u{E000}".as_bytes(), Component::Query, c, &mut v);
        assert_eq!(
            v,
            "\u{E000}".as_bytes(),
            "private use is allowed in the query"
        );
    }

    #[test]
    fn masks16_matches_its_twin_at_every_position() {
        let mut checked = 0;
        for fill in [b'a', b'/', b'.', b'Z', 0x80, 0xFF, 0] {
            for pos in 0..16 {
                for x in 0..=255u8 {
                    let mut b = [fill; 16];
                    b[pos] = x;
                    b[(pos + 5) % 16] = x.wrapping_add(1);
                    assert_eq!(masks16(&b), masks16_naive(&b), "{b:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 7 * 16 * 256);
    }

    /// Every combination of the options [`normal_quick`] reads.
    fn quick_options() -> Vec<NormalizeOptions> {
        let mut v = Vec::new();
        for bits in 0..64u32 {
            let b = |k: u32| bits >> k & 1 == 1;
            v.push(NormalizeOptions {
                rungs: Rungs {
                    case: b(0),
                    percent: b(1),
                    path: b(2),
                    scheme: b(3),
                    idn: b(4).then_some(Idn::Ascii),
                    ..Rungs::default()
                },
                as_uri: b(5),
                ..NormalizeOptions::default()
            });
        }
        v
    }

    /// The lines [`normal_quick`] answers itself, by their definition: `https://`, `http://`
    /// or `file://` and a host without `:`, at least 16 bytes, no `:` or `|` after a file
    /// scheme, and the engine's precondition (no to-uri flagged byte: `is_normal_ascii`'s).
    fn quick_shape(line: &[u8]) -> bool {
        let a0 = if line.starts_with(b"https://") {
            8
        } else if line.starts_with(b"http://") || line.starts_with(b"file://") {
            7
        } else {
            return false;
        };
        let auth = &line[a0..];
        let auth = &auth[..auth
            .iter()
            .position(|&b| b == b'/' || b == b'?')
            .unwrap_or(auth.len())];
        line.len() >= 16
            && !auth.contains(&b':')
            && !(line.starts_with(b"file:") && line[5..].iter().any(|&b| b == b':' || b == b'|'))
            && classes::plain_prefix_len(line) == line.len()
            && !line.contains(&b'@')
    }

    /// `normal_quick` against `quick_ok && is_normal_plain` (its twin): never true where they
    /// are false, and the same answer on every line of its shape, for every combination of
    /// options: on lines made of the bytes it looks at (every length up to 40, the special
    /// bytes at every position) and on every line of the data sets.
    #[test]
    fn normal_quick_implies_the_predicates_and_accepts_the_common_shapes() {
        let opts = quick_options();
        // Lines of the shape times options, and how many of those it accepted.
        let (mut same_shape, mut accepted) = (0usize, 0usize);
        let check = |line: &[u8], same_shape: &mut usize, accepted: &mut usize| {
            if classes::plain_prefix_len(line) != line.len() || line.contains(&b'@') {
                return;
            }
            let shape = quick_shape(line);
            for o in &opts {
                let quick = normal_quick(line, o);
                let twin = integrity::quick_ok(line) && is_normal_plain(line, o);
                assert!(!quick || twin, "{:?} {o:?}", String::from_utf8_lossy(line));
                if shape {
                    assert_eq!(quick, twin, "{:?} {o:?}", String::from_utf8_lossy(line));
                    *same_shape += 1;
                    *accepted += usize::from(quick);
                }
                assert_eq!(
                    is_normal_unflagged(line, o),
                    twin,
                    "{:?}",
                    String::from_utf8_lossy(line)
                );
            }
        };
        let alphabet: &[u8] = b"./?-:|Aa0";
        for prefix in ["https://", "http://", "file://", "file:///", "ftp://"] {
            for len in prefix.len()..=40 {
                for pos in prefix.len()..len {
                    for &x in alphabet {
                        for &y in alphabet {
                            let mut line = prefix.as_bytes().to_vec();
                            line.resize(len, b'a');
                            line[pos] = x;
                            line[(pos + 1).min(len - 1)] = y;
                            let k = prefix.len() + (pos * 7 + 3) % (len - prefix.len());
                            line[k] = b'/';
                            check(&line, &mut same_shape, &mut accepted);
                            // Without the '/': a host up to the end, or a path of dots.
                            line[k] = b'.';
                            check(&line, &mut same_shape, &mut accepted);
                        }
                    }
                }
            }
        }
        let made = same_shape;
        assert!(accepted > 0 && accepted < made, "{accepted} of {made}");
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
        let real = dir.join("real_files_and_shortener.txt");
        match std::fs::read(&real) {
            Ok(bytes) => {
                let before = accepted;
                for line in bytes.split(|&b| b == b'\n') {
                    check(line, &mut same_shape, &mut accepted);
                }
                // Most real lines have the shape and are normal at the default options.
                assert!(
                    (accepted - before) / opts.len() > 80_000,
                    "{} of {}",
                    accepted - before,
                    same_shape - made
                );
            }
            Err(e) if std::env::var_os("CI").is_none() => {
                eprintln!("SKIPPED the real data set ({}: {e})", real.display());
            }
            Err(e) => panic!("{}: {e}", real.display()),
        }
        // The other data sets (the real one, checked above, is a third of this test's time in
        // a debug build: not twice).
        for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            if e.path().extension().is_some_and(|x| x == "txt") && e.path() != real {
                let bytes = std::fs::read(e.path()).expect("dataset");
                for line in bytes.split(|&b| b == b'\n') {
                    check(line, &mut same_shape, &mut accepted);
                }
            }
        }
    }

    #[test]
    fn swar_scans_match_their_twins_at_every_length_and_position() {
        let alphabet: &[u8] = b"./?-aZAz09:_";
        let mut line = Vec::new();
        for len in 0..=20 {
            for pos in 0..len.max(1) {
                for &x in alphabet {
                    for &y in alphabet {
                        line.clear();
                        line.resize(len, b'a');
                        if len > 0 {
                            line[pos] = x;
                            line[(pos + 1) % len] = y;
                            line[(pos * 7 + 3) % len] = b'/';
                        }
                        assert_eq!(
                            tail_path_has_dot_segment(&line),
                            tail_path_has_dot_segment_naive(&line),
                            "{:?}",
                            String::from_utf8_lossy(&line)
                        );
                        assert_eq!(
                            host_case_and_dashes(&line),
                            host_case_and_dashes_naive(&line),
                            "{:?}",
                            String::from_utf8_lossy(&line)
                        );
                    }
                }
            }
        }
        for b in 0..0x80u8 {
            let w = u64::from_le_bytes([b, 0, b'-', b, 0x7F, b'A', b'Z', b'/']);
            for (k, &x) in w.to_le_bytes().iter().enumerate() {
                let bit = |m: u64| m >> (8 * k + 7) & 1 == 1;
                assert_eq!(bit(swar::eq(w, b)), x == b, "{b:#x} {k}");
                assert_eq!(bit(swar::upper(w)), x.is_ascii_uppercase(), "{b:#x} {k}");
            }
        }
    }

    /// `has_dot_segment` against the definition (a segment between `/`s that is `.` or `..`,
    /// RFC 3986 §3.3) on every string of up to seven bytes over `. / a` and two non-ASCII
    /// bytes (0xAE is `.` with the high bit set).
    #[test]
    fn dot_segment_search_matches_its_definition() {
        let alphabet = [b'.', b'/', b'a', 0xC3, 0xAE];
        for len in 0..=7u32 {
            for mut k in 0..5usize.pow(len) {
                let mut p = Vec::new();
                for _ in 0..len {
                    p.push(alphabet[k % 5]);
                    k /= 5;
                }
                let naive = p.split(|&b| b == b'/').any(|s| s == b"." || s == b"..");
                assert_eq!(has_dot_segment(&p), naive, "{p:?}");
            }
        }
    }

    /// The quick IRI form keeps raw the characters it calls clean; the byte steps must keep
    /// them too (RFC 3987 §2.2 `iunreserved`, §4.1): every clean character is an IRI
    /// character in its component, on every code point.
    #[test]
    fn clean_characters_are_iri_characters() {
        for c in (0x80..=0x10_FFFFu32).filter_map(char::from_u32) {
            for q in [false, true] {
                if super::super::to_iri::is_clean_char(c, q) {
                    assert!(is_iri_char(c, q), "U+{:04X} query {q}", c as u32);
                }
            }
        }
    }

    /// [`quick_crawl_tail`] judges quiet characters outside the query ([`is_quiet_char`]) for
    /// every component: a quiet character is an IRI character that is neither displayable
    /// nor clean in the query too, on every code point (so each step treats it there as
    /// outside). None is clean (they are what [`clean_line`] refuses).
    #[test]
    fn quiet_characters_are_quiet_in_the_query_too() {
        let mut n = 0;
        for c in (0x80..=0x10_FFFFu32).filter_map(char::from_u32) {
            if is_quiet_char(c) {
                n += 1;
                assert!(
                    is_iri_char(c, true)
                        && !is_displayable(c, true)
                        && !super::super::to_iri::is_clean_char(c, false),
                    "U+{:04X}",
                    c as u32
                );
            }
        }
        // The zero-width and other invisible characters, spaces, full-width delimiters...
        assert!(n > 100, "{n}");
        for c in [
            '\u{200B}', '\u{200C}', '\u{200D}', '\u{3000}', '\u{FF0F}', '\u{2060}',
        ] {
            assert!(is_quiet_char(c), "U+{:04X}", c as u32);
        }
        // Reported by step 0 (bidi formatting, private use outside the query, C1), or
        // displayable (a look-alike of a delimiter, kept or encoded by its neighbours).
        for c in [
            '\u{200F}', '\u{202E}', '\u{E000}', '\u{85}', '\u{30CE}', '\u{660}',
        ] {
            assert!(!is_quiet_char(c), "U+{:04X}", c as u32);
        }
    }

    /// The crawl pass's answer for a line whose only unclean characters are quiet ones after
    /// the authority: the line with them percent-encoded, in upper-case hex, through the
    /// presenter ([`Quick::ToIriQuiet`]); any other unclean character, one in the host, or
    /// another reason to decline (a dot segment, a capital in the host) still declines. The
    /// results equal steps 0–9's: `tests/normalize_quick.rs` and the engine's
    /// `normalize_crawl_line_equals_the_slow_path`.
    #[test]
    fn crawl_pass_encodes_quiet_characters() {
        let ask = |l: &str| {
            let mut q = Vec::new();
            let k = quick_crawl_line(l.as_bytes(), false, &mut q);
            (k, String::from_utf8_lossy(&q).into_owned())
        };
        let quiet = |l: &str, want: &str| {
            assert_eq!(ask(l), (Some(Quick::ToIriQuiet), want.to_string()), "{l}");
        };
        quiet(
            "https://h.com/a\u{200B}b?c\u{3000}#\u{FF0F}",
            "https://h.com/a%E2%80%8Bb?c%E3%80%80#%EF%BC%8F",
        );
        quiet(
            "http://\u{65E5}.jp/\u{65E5}\u{200C}%C3%A9/\u{1F600}\u{200D}",
            "http://\u{65E5}.jp/\u{65E5}%E2%80%8C%C3%A9/\u{1F600}%E2%80%8D",
        );
        for l in [
            "https://h.com/a\u{200F}b",
            "https://h.com/\u{E000}\u{200B}",
            "https://h.com/\u{30CE}\u{200B}",
            "https://a\u{200B}b.com/x\u{200B}",
            "https://h.com/\u{200B}%e2%80%8b",
            "https://h.com/\u{200B}%41",
            "https://h.com/./\u{200B}",
            "https://H.com/\u{200B}",
            "https://h.com/\u{200B}#a#b",
            "https://h.com/\u{200B}[",
        ] {
            assert_eq!(ask(l).0, None, "{l}");
        }
        let mut q = Vec::new();
        assert_eq!(
            quick_crawl_line(b"https://h.com/\xE2\x80\x8B\xE2\x80", false, &mut q),
            None
        );
        // Without a quiet character, the answers of before.
        assert_eq!(ask("https://h.com/a/b").0, Some(Quick::Same));
        assert_eq!(ask("https://h.com/a/%C3%A9").0, Some(Quick::ToIri));
    }

    /// [`clean_line`] answers for every component: a character clean outside the query is
    /// clean inside it too, on every code point.
    #[test]
    fn clean_outside_the_query_is_clean_inside() {
        for c in (0x80..=0x10_FFFFu32).filter_map(char::from_u32) {
            if super::super::to_iri::is_clean_char(c, false) {
                assert!(
                    super::super::to_iri::is_clean_char(c, true),
                    "U+{:04X}",
                    c as u32
                );
            }
        }
    }

    /// [`tail_path_has_dot_segment`] against its twin: every string of up to 7 bytes over
    /// the bytes it looks at (and a letter, a non-ASCII byte); then `.`, `..`, `/./`, `/../`,
    /// `?` and `#` pieces at every position of 0–70-byte tails of letters and slashes
    /// (every place in and across the 16-byte blocks and the zero-padded last one).
    #[test]
    fn tail_path_dot_segment_matches_twin() {
        let alphabet = [b'.', b'/', b'?', b'#', b'a', 0xC3];
        let mut found = 0;
        for len in 0..=7u32 {
            for mut x in 0..6usize.pow(len) {
                let mut t = Vec::new();
                for _ in 0..len {
                    t.push(alphabet[x % 6]);
                    x /= 6;
                }
                let want = tail_path_has_dot_segment_naive(&t);
                assert_eq!(tail_path_has_dot_segment(&t), want, "{t:02X?}");
                found += want as usize;
            }
        }
        assert!(found > 10_000, "{found}");
        let pieces: [&[u8]; 10] = [
            b".", b"..", b"/.", b"/..", b"/./", b"/../", b"?", b"#", b"/.?", b"/..#",
        ];
        for fill in [&b"a"[..], b"/a", b"ab/", "é/".as_bytes()] {
            for len in 0..=70 {
                let text: Vec<u8> = fill.iter().copied().cycle().take(len).collect();
                for p in pieces {
                    for q in [&b""[..], b"?", b"/./"] {
                        for pos in 0..=len {
                            let t = [&text[..pos], p, &text[pos..], q].concat();
                            assert_eq!(
                                tail_path_has_dot_segment(&t),
                                tail_path_has_dot_segment_naive(&t),
                                "{:?}",
                                String::from_utf8_lossy(&t)
                            );
                        }
                    }
                }
            }
        }
    }

    /// The kernels' mark answers ([`clean_line_marks`], AVX2's where the CPU has it) and
    /// [`raw_mark_on_unsafe_base`] against [`raw_mark_on_unsafe_base_naive`]: a combining
    /// mark of two, three and four bytes after each kind of base (a delimiter, a kept `%HH`,
    /// a letter, a non-ASCII letter, a non-ASCII run, the line's start) at every position of
    /// lines that cross the 32- and 64-byte windows, asked from the start, the base, the
    /// mark, just after it and the end.
    #[test]
    fn kernel_marks_match_twin_over_base_length_and_position() {
        let bases = ["/", "=", "%2F", "a", "9", "é", "語", "語/", ""];
        let marks = [
            "\u{338}",
            "\u{301}",
            "\u{93F}",
            "\u{20D2}",
            "\u{1D167}",
            "\u{338}\u{301}",
        ];
        let lens = [
            0usize, 1, 2, 14, 15, 16, 30, 31, 32, 33, 62, 63, 64, 65, 96, 127, 130,
        ];
        let mut compared = [0usize; 2];
        for fill in ["x", "é", "語", "/"] {
            for &len in &lens {
                let text = fill.repeat(len);
                for pos in 0..=len {
                    let at = text.char_indices().nth(pos).map_or(text.len(), |(k, _)| k);
                    for base in bases {
                        for mark in marks {
                            let line = format!("{}{base}{mark}{}", &text[..at], &text[at..]);
                            let b = line.as_bytes();
                            let m = at + base.len();
                            let m1 = m + line[m..].chars().next().map_or(0, char::len_utf8);
                            for from in [0, at, m, m1, line.len()] {
                                let want = raw_mark_on_unsafe_base_naive(&line, from);
                                assert_eq!(
                                    raw_mark_on_unsafe_base(b, from),
                                    want,
                                    "{line:?} {from}"
                                );
                                if let Some(c) = clean_line_marks(b, from) {
                                    assert_eq!(c.mark, want, "{line:?} from {from}");
                                    compared[usize::from(want)] += 1;
                                }
                                #[cfg(target_arch = "x86_64")]
                                if clean_avx2::available() {
                                    // SAFETY: the kernel's feature (AVX2), detected just above.
                                    if let Some((.., mark)) =
                                        unsafe { clean_avx2::clean_line(b, from) }
                                    {
                                        assert_eq!(mark, want, "AVX2: {line:?} from {from}");
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // Both answers were reached through the kernels many times.
        assert!(compared[0] > 10_000 && compared[1] > 10_000, "{compared:?}");
    }

    /// The kernels of [`clean_line`] (AVX-512's or AVX2's, whichever the CPU runs, and
    /// AVX2's where the CPU has it) against their twin: every code point of the BMP (and
    /// every 17th above it) between clean text, at three places of a 130-byte line; then
    /// every byte that stops them and a few characters at every position of lines of 0 to
    /// 140 bytes (every alignment of the 32- and 64-byte windows and of a line's tail),
    /// between ASCII or between clean two- and three-byte characters; the bytes include `[`,
    /// `]`, a second `#`, `%HH` of every kind and every kind of ill-formed UTF-8.
    #[test]
    fn clean_line_matches_twin_over_code_points_length_and_position() {
        // The AVX2 kernel where the CPU has AVX2 (`clean_line` may run AVX-512's), else the
        // naive answer.
        let avx2 = |b: &[u8]| {
            #[cfg(target_arch = "x86_64")]
            if clean_avx2::available() {
                // SAFETY: the kernel's feature (AVX2), detected just above.
                let got = unsafe { clean_avx2::clean_line(b, usize::MAX) };
                if let Some((_, dots, mark)) = got {
                    assert_eq!(dots, b.windows(2).any(|w| w == b"/."), "{b:02X?}");
                    assert!(!mark, "{b:02X?}");
                }
                return got.map(|(high, ..)| high);
            }
            clean_line_naive(b)
        };
        let cps = (0x20u32..0x1_0000).chain((0x1_0000..=0x10_FFFF).step_by(17));
        let fill = "ab/日本-é".repeat(12);
        let mut n = 0;
        for c in cps.filter_map(char::from_u32) {
            for at in [0, 61, fill.len()] {
                let line = format!("{}{c}{}", &fill[..at], &fill[at..]);
                let b = line.as_bytes();
                let want = clean_line_naive(b);
                assert_eq!(clean_line(b), want, "U+{:04X} at {at}", c as u32);
                assert_eq!(avx2(b), want, "AVX2: U+{:04X} at {at}", c as u32);
                n += 1;
            }
        }
        assert!(n > 190_000);
        let probes: &[&[u8]] = &[
            b"%",
            b"%4",
            b"%20",
            b"%2F",
            b"%2f",
            b"%41",
            b"%7E",
            b"%2D%2E%5F",
            b"%C3%A9",
            b"%c3%A9",
            b"%E2%80%8B",
            b"%FF",
            b"%G0",
            b"%%41",
            b"%A%",
            b"/.",
            b"/..",
            b"./",
            b" ",
            b"\"",
            b"<",
            b">",
            b"\\",
            b"^",
            b"`",
            b"{",
            b"|",
            b"}",
            b"[",
            b"]",
            b"#",
            b"##",
            b"\0",
            b"\t",
            b"\x7F",
            "\u{A0}".as_bytes(),
            "\u{200B}".as_bytes(),
            "\u{2215}".as_bytes(),
            "\u{E000}".as_bytes(),
            "\u{1F600}".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            "語".as_bytes(),
            "é".as_bytes(),
            "\u{0964}".as_bytes(),
            // Not UTF-8: a lone continuation, truncated, overlong, a surrogate, too large.
            b"\x80",
            b"\xBF\xBF",
            b"\xC3",
            b"\xE8\xAA",
            b"\xF0\x9F\x98",
            b"\xC0\xAF",
            b"\xC1\xBF",
            b"\xE0\x80\xAF",
            b"\xE0\x9F\xBF",
            b"\xED\xA0\x80",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xFF",
            b"\xC3\xA9\xA9",
        ];
        for fill in ["x", "é", "語"] {
            for len in 0..=140usize {
                for &p in probes {
                    for pos in 0..=len {
                        let text = fill.repeat(len);
                        let at = text.char_indices().nth(pos).map_or(text.len(), |(k, _)| k);
                        let line = [&text.as_bytes()[..at], p, &text.as_bytes()[at..]].concat();
                        if pos == 0 {
                            // Every alignment of the same text.
                            clean_line_twin_check(&line);
                        }
                        let lossy = String::from_utf8_lossy(&line);
                        let want = clean_line_naive(&line);
                        assert_eq!(clean_line(&line), want, "{lossy:?}");
                        assert_eq!(avx2(&line), want, "AVX2: {lossy:?}");
                    }
                }
            }
        }
    }
}
