//! The two readings of a host-integrity error, for its report row (issue 16: "where iribulk
//! cannot keep that promise, the line is an error whose message names both readings").
//!
//! The error kinds say what class of disagreement a line has; this module says, for the line
//! at hand, which host each reading gives: RFC 3986 (what iribulk would write) against a
//! browser (the WHATWG URL Standard), or IDNA2003 (RFC 3490, kept by `--host idna2003`)
//! against UTS #46 non-transitional (what browsers use). It runs only for a reported row (an
//! error or warning line), never on the fast path.
//!
//! The browser's reading here is the host part as the WHATWG URL Standard delimits it (§4.4:
//! after the scheme of a special URL any run of `/` and `\`, the authority up to the first
//! `/ \ ? #`, userinfo before the last `@`, port after the last `:` outside brackets), as
//! written: its host parser (percent-decoding, UTS #46 mapping, IPv4) is not repeated here.

use crate::config::HostMode;
use crate::convert::integrity;
use crate::error::ErrorKind;
use crate::grammar::components;
use crate::host::{self, Idna};

/// The readings of `kind` on `line` (the input line, or the reference with `--base`) as one
/// clause for the report's message, or `None` for kinds that have no second reading.
///
/// ```
/// use iribulk::convert::readings::readings;
/// use iribulk::{ErrorKind, HostMode};
/// let r = readings(ErrorKind::BackslashAuthority, br"https://good.com\@evil.com/", HostMode::Auto);
/// assert_eq!(r.as_deref(), Some("a browser reads host good.com, RFC 3986 reads host evil.com"));
/// ```
pub fn readings(kind: ErrorKind, line: &[u8], host_mode: HostMode) -> Option<String> {
    match kind {
        ErrorKind::Idna2003Differs => {
            let HostMode::Idna2003(flags) = host_mode else {
                return None;
            };
            let raw = std::str::from_utf8(integrity::host_of(line)?).ok()?;
            let decoded = host::decode_host_percent(raw)?;
            let mut a = String::new();
            host::to_ascii(&decoded, Idna::Idna2003(flags), &mut a).ok()?;
            let mut b = String::new();
            let uts46 = match host::to_ascii(&decoded, Idna::Uts46, &mut b) {
                Ok(()) => format!("host {b}"),
                Err(e) => format!("no host ({e})"),
            };
            Some(format!(
                "IDNA2003 (RFC 3490) gives host {a}, UTS #46 (browsers) gives {uts46}"
            ))
        }
        ErrorKind::BackslashAuthority => {
            // Only where the line itself has the `\` there: with `--base`, resolution may put
            // one there (`file:/../\evil.com/x`), and the reference's own readings would be
            // no host's.
            // A reference without a scheme: the browser's reading against a special base.
            let (browser, base) = if integrity::backslash_network_path(line).is_some() {
                (host_after_slashes(line), "against a special base ")
            } else {
                integrity::backslash_authority(line)?;
                (browser_host(line)?, "")
            };
            let rfc = rfc3986_host(line).unwrap_or_default();
            Some(format!(
                "{base}a browser reads {}, RFC 3986 reads {}",
                shown(browser),
                shown(rfc)
            ))
        }
        ErrorKind::MissingHost => {
            // A `//` reference without a scheme is `missing-host` only against a special
            // base (`///x`: a browser skips the slashes, RFC 3986 reads an empty authority);
            // it had no readings (a QA sweep).
            let (browser, base) = match integrity::scheme_of(line) {
                None if line.starts_with(b"//") => {
                    (host_after_slashes(line), "against a special base ")
                }
                _ => (browser_host(line)?, ""),
            };
            if browser.is_empty() {
                return None;
            }
            Some(format!(
                "{base}RFC 3986 reads no host, a browser reads {}",
                shown(browser)
            ))
        }
        ErrorKind::BackslashReference => {
            let browser = host_after_slashes(line);
            Some(format!(
                "RFC 3986 reads a path on the base's host, a browser reads {}",
                shown(browser)
            ))
        }
        _ => None,
    }
}

/// The host a browser reads in a special-scheme `line` (WHATWG URL §4.4; module docs), as
/// written, or `None` when the line has no special scheme.
pub fn browser_host(line: &[u8]) -> Option<&[u8]> {
    let scheme = integrity::scheme_of(line)?;
    if !components::is_special_scheme(scheme) {
        return None;
    }
    Some(host_after_slashes(&line[scheme.len() + 1..]))
}

/// After any run of `/` and `\`: the authority up to the first `/ \ ? #`, without userinfo
/// and port (WHATWG URL §4.4 special authority ignore slashes, authority and host states).
fn host_after_slashes(rest: &[u8]) -> &[u8] {
    let start = rest
        .iter()
        .position(|&b| b != b'/' && b != b'\\')
        .unwrap_or(rest.len());
    let rest = &rest[start..];
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'\\' | b'?' | b'#'))
        .unwrap_or(rest.len());
    strip_userinfo_and_port(&rest[..end])
}

/// The host RFC 3986 reads (§3.2: `//` then up to the first `/ ? #`), without userinfo and
/// port, or `None` without an authority.
fn rfc3986_host(line: &[u8]) -> Option<&[u8]> {
    let c = components::split(line);
    Some(strip_userinfo_and_port(&line[c.authority?]))
}

/// `authority` without what precedes its last `@` and without a `:port` outside brackets.
fn strip_userinfo_and_port(authority: &[u8]) -> &[u8] {
    let h = match memchr::memrchr(b'@', authority) {
        Some(p) => &authority[p + 1..],
        None => authority,
    };
    let close = memchr::memrchr(b']', h).map_or(0, |p| p + 1);
    match memchr::memrchr(b':', &h[close..]) {
        Some(p) => &h[..close + p],
        None => h,
    }
}

/// A host for the message: `host NAME`, or `no host` when empty; bytes that are not UTF-8
/// replaced.
fn shown(host: &[u8]) -> String {
    if host.is_empty() {
        "no host".to_string()
    } else {
        // Escaped as the report's input field is ([`crate::error::escape_text`]): the host
        // is the line's own bytes, and a bidi control or NEL in it would reorder or break the
        // row (found by a QA sweep); invalid UTF-8 shows as `\xHH`, not U+FFFD.
        let mut s = String::from("host ");
        crate::error::escape_text(host, &mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(kind: ErrorKind, line: &str) -> Option<String> {
        readings(kind, line.as_bytes(), HostMode::Auto)
    }

    #[test]
    fn backslash_authority_names_both_hosts() {
        assert_eq!(
            r(
                ErrorKind::BackslashAuthority,
                r"https://good.com\@evil.com/"
            )
            .as_deref(),
            Some("a browser reads host good.com, RFC 3986 reads host evil.com")
        );
        assert_eq!(
            r(
                ErrorKind::BackslashAuthority,
                r"http://u:p@a.com:81\x@b.org:8080/"
            )
            .as_deref(),
            Some("a browser reads host a.com, RFC 3986 reads host b.org")
        );
        assert_eq!(
            r(ErrorKind::BackslashAuthority, r"file:\\srv\share").as_deref(),
            Some("a browser reads host srv, RFC 3986 reads no host")
        );
    }

    #[test]
    fn missing_host_names_what_a_browser_reads() {
        assert_eq!(
            r(ErrorKind::MissingHost, "http:/good.com/../evil.com/").as_deref(),
            Some("RFC 3986 reads no host, a browser reads host good.com")
        );
        assert_eq!(
            r(ErrorKind::MissingHost, "https:///good.com:8/x").as_deref(),
            Some("RFC 3986 reads no host, a browser reads host good.com")
        );
        // Nothing for a browser either: no second reading.
        assert_eq!(r(ErrorKind::MissingHost, "http:"), None);
        // A scheme-less `//` reference (with --base, against a special one).
        assert_eq!(
            r(ErrorKind::MissingHost, "///good.com/x").as_deref(),
            Some("against a special base RFC 3986 reads no host, a browser reads host good.com")
        );
        assert_eq!(r(ErrorKind::MissingHost, "//"), None);
        assert_eq!(r(ErrorKind::MissingHost, "/x"), None);
    }

    #[test]
    fn hosts_are_escaped_like_the_report_input() {
        // Found by a QA sweep: a raw U+202E reordered the report row, a NEL broke it in two
        // for readers that split at U+0085, invalid UTF-8 showed as U+FFFD.
        assert_eq!(
            r(ErrorKind::BackslashAuthority, "https://a\u{202E}\\@b.com/").as_deref(),
            Some("a browser reads host a\\u{202E}, RFC 3986 reads host b.com")
        );
        assert_eq!(
            r(ErrorKind::MissingHost, "https:\u{85}//a/").as_deref(),
            Some("RFC 3986 reads no host, a browser reads host \\xC2\\x85")
        );
        assert_eq!(
            readings(
                ErrorKind::BackslashAuthority,
                b"https://a\xFF\\@b.com/",
                HostMode::Auto
            )
            .as_deref(),
            Some("a browser reads host a\\xFF, RFC 3986 reads host b.com")
        );
    }

    #[test]
    fn backslash_reference_names_the_browsers_host() {
        assert_eq!(
            r(ErrorKind::BackslashReference, r"\\evil.com/x").as_deref(),
            Some("RFC 3986 reads a path on the base's host, a browser reads host evil.com")
        );
        assert_eq!(
            r(ErrorKind::BackslashReference, r"/\u@evil.com:1?q").as_deref(),
            Some("RFC 3986 reads a path on the base's host, a browser reads host evil.com")
        );
    }

    #[test]
    fn idna2003_differs_names_both_results() {
        let m = HostMode::IDNA2003;
        assert_eq!(
            readings(ErrorKind::Idna2003Differs, "http://faß.de/".as_bytes(), m).as_deref(),
            Some("IDNA2003 (RFC 3490) gives host fass.de, UTS #46 (browsers) gives host xn--fa-hia.de")
        );
        let p = readings(
            ErrorKind::Idna2003Differs,
            "http://pay\u{200D}pal.com/".as_bytes(),
            m,
        )
        .unwrap();
        assert!(
            p.starts_with(
                "IDNA2003 (RFC 3490) gives host paypal.com, UTS #46 (browsers) gives no host ("
            ),
            "{p}"
        );
        // Only with IDNA2003 chosen, and only for the kinds with two readings.
        assert_eq!(r(ErrorKind::Idna2003Differs, "http://faß.de/"), None);
        assert_eq!(r(ErrorKind::BadPercent, "http://a/%zz"), None);
    }
}
