//! The host-integrity oracle of issue 16 (contract item 17), shared by
//! `tests/host_integrity.rs` (included by path) and the fuzz target `host_integrity`.
//!
//! The judge is the `url` crate, rust-url's implementation of the WHATWG URL Standard (what
//! browsers do). For the special schemes `http https ws wss ftp`, `file` with a host, and the
//! inner URL of `blob:`, a line that iribulk writes without an error must read, for that
//! parser, with the same scheme, host, port and userinfo as its input (with `--base`: both
//! joined onto the base, as a browser resolves an `href`); a line the parser refuses must
//! never come out as a URL it accepts with a host.

use iribulk::config::{HostMode, ToUriOptions};
use iribulk::convert::normalize::{Idn, Level, Rungs};
use iribulk::engine::{ChunkOut, EngineOptions, Mode, Worker};
use std::sync::Arc;
use url::Url;

/// The schemes browsers treat as special (WHATWG URL Standard §4.1 "special scheme").
pub const SPECIAL: [&str; 6] = ["http", "https", "ws", "wss", "ftp", "file"];

/// Bases of the resolution runs: each special scheme, userinfo and a port, a `file` host, a
/// non-special scheme (RFC 3986 §5.2 stays strict there).
pub const BASES: &[&str] = &[
    "http://base.example/d/p",
    "https://base.example/d/p?q#f",
    "ws://base.example:8080/d/",
    "ftp://u:pw@base.example/d/p",
    "file://host.example/d/p",
    "file:///d/p",
    "foo://base.example/d/p",
];

/// What a browser reads from a URL, for the fields the rule compares. Userinfo is compared
/// percent-decoded (normalize may change the case of `%hh`, which means the same octets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Lower-case scheme (`blob+https` for the inner URL of a blob).
    pub scheme: String,
    /// The host as the parser serializes it (ASCII; IPv4 and IPv6 canonical).
    pub host: Option<String>,
    /// The port, `None` when absent or the scheme's default.
    pub port: Option<u16>,
    /// The user name, percent-decoded.
    pub username: Vec<u8>,
    /// The password, percent-decoded.
    pub password: Option<Vec<u8>>,
}

fn pct_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let h = (b[i + 1] as char).to_digit(16);
            let l = (b[i + 2] as char).to_digit(16);
            if let (Some(h), Some(l)) = (h, l) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// The reading of `u` when the rule covers it: a special scheme (`file` only with a non-empty
/// host), or `blob:` whose path is a URL that the rule covers.
pub fn reading(u: &Url) -> Option<Reading> {
    let scheme = u.scheme();
    if scheme == "blob" {
        let inner = Url::parse(u.path()).ok()?;
        let mut r = reading(&inner)?;
        r.scheme = format!("blob+{}", r.scheme);
        return Some(r);
    }
    if !SPECIAL.contains(&scheme) {
        return None;
    }
    let host = u.host_str().filter(|h| !h.is_empty()).map(str::to_string);
    if scheme == "file" && host.is_none() {
        return None;
    }
    Some(Reading {
        scheme: scheme.to_string(),
        host,
        port: u.port(),
        username: pct_decode(u.username()),
        password: u.password().map(pct_decode),
    })
}

/// What the parser makes of `s`, joined onto `base` when there is one.
pub fn parse(s: &str, base: Option<&Url>) -> Result<Url, url::ParseError> {
    match base {
        Some(b) => b.join(s),
        None => Url::parse(s),
    }
}

/// A broken rule: which field differs and both readings, for the report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// `scheme`, `host`, `port`, `userinfo`, `refused` (the output is refused or loses the
    /// rule's reading), `gained` (a refused or uncovered input became a covered URL with a
    /// host); the tests add `bad-ace accepted`, `accepted what browsers refuse`,
    /// `display-unsafe label` and `decoded delimiter look-alike`, which [`cause`] keeps as
    /// their own classes.
    pub field: &'static str,
    /// The input's reading, in words.
    pub input: String,
    /// The output's reading, in words.
    pub output: String,
}

fn words(r: &Result<Url, url::ParseError>) -> String {
    match r {
        Ok(u) => match reading(u) {
            Some(x) => format!(
                "{}://{}{}{}",
                x.scheme,
                if x.username.is_empty() && x.password.is_none() {
                    String::new()
                } else {
                    format!(
                        "{}:{}@",
                        String::from_utf8_lossy(&x.username),
                        String::from_utf8_lossy(x.password.as_deref().unwrap_or_default())
                    )
                },
                x.host.as_deref().unwrap_or("(no host)"),
                x.port.map(|p| format!(":{p}")).unwrap_or_default()
            ),
            None => format!("uncovered {}", u.as_str()),
        },
        Err(e) => format!("refused ({e})"),
    }
}

/// Judges one written line: `None` when the rule holds (or does not apply: an input that is
/// not UTF-8 has no reading here, the parser takes strings). The input is joined onto `base`
/// (as a browser resolves an `href`); the output is read as written, on its own: with a base,
/// iribulk writes the resolved reference, which its consumer parses as an absolute URL.
pub fn judge(input: &[u8], output: &[u8], base: Option<&Url>) -> Option<Violation> {
    let input = std::str::from_utf8(input).ok()?;
    if input.is_empty() {
        return None; // an empty line is no reference; the engine passes it through
    }
    let output = String::from_utf8_lossy(output);
    let rin = parse(input, base);
    let rout = Url::parse(&output);
    let a = rin.as_ref().ok().and_then(reading);
    let b = rout.as_ref().ok().and_then(reading);
    let field = match (&a, &b) {
        (None, None) => return None,
        (None, Some(y)) if y.host.is_none() => return None,
        (None, Some(_)) => "gained",
        (Some(_), None) => "refused",
        (Some(x), Some(y)) => {
            if x.scheme != y.scheme {
                "scheme"
            } else if x.host != y.host {
                "host"
            } else if x.port != y.port {
                "port"
            } else if x.username != y.username || x.password != y.password {
                "userinfo"
            } else {
                return None;
            }
        }
    };
    Some(Violation {
        field,
        input: words(&rin),
        output: words(&rout),
    })
}

/// Warnings that announce a reading browsers do not share, by decision of issue 16: a line
/// with one is reported, so the rule does not judge it. `idna2003-differs`: `--host idna2003`
/// keeps RFC 3490's result where UTS #46 gives another; `ambiguous-ipv4`: `check` keeps a host
/// name that browsers read as IPv4.
pub const ANNOUNCED: &[&str] = &["idna2003-differs", "ambiguous-ipv4"];

/// One way of running iribulk that the rule covers.
#[derive(Clone, Debug)]
pub struct Config {
    /// Its name in the tally (`to-uri/idna2003`, `normalize/syntax`, ...).
    pub name: &'static str,
    /// The engine's options.
    pub opts: EngineOptions,
    /// True when each line is resolved against one of [`BASES`] first (`--base`).
    pub resolve: bool,
}

fn to_uri(host: HostMode) -> ToUriOptions {
    ToUriOptions::default().host(host)
}

/// Every mode and host mode the rule covers.
pub fn configs() -> Vec<Config> {
    let e = |mode: Mode, to_uri: ToUriOptions| EngineOptions {
        mode,
        to_uri,
        ..EngineOptions::default()
    };
    let norm = |rungs: Rungs| Mode::Normalize {
        rungs,
        as_uri: false,
    };
    let auto = to_uri(HostMode::Auto);
    let unicode = Rungs {
        idn: Some(Idn::Unicode),
        ..Rungs::level(Level::Syntax)
    };
    let c = |name, opts, resolve| Config {
        name,
        opts,
        resolve,
    };
    vec![
        c("to-uri/auto", e(Mode::ToUri, auto), false),
        c(
            "to-uri/uts46",
            e(Mode::ToUri, to_uri(HostMode::Uts46)),
            false,
        ),
        c(
            "to-uri/idna2003",
            e(Mode::ToUri, to_uri(HostMode::IDNA2003)),
            false,
        ),
        c(
            "to-uri/percent",
            e(Mode::ToUri, to_uri(HostMode::Percent)),
            false,
        ),
        c("to-uri/leiri", e(Mode::ToUri, auto.leiri(true)), false),
        c("to-iri", e(Mode::ToIri, auto), false),
        c(
            "normalize/string",
            e(norm(Rungs::level(Level::String)), auto),
            false,
        ),
        c(
            "normalize/syntax",
            e(norm(Rungs::level(Level::Syntax)), auto),
            false,
        ),
        c(
            "normalize/scheme",
            e(norm(Rungs::level(Level::Scheme)), auto),
            false,
        ),
        c("normalize/idn-unicode", e(norm(unicode), auto), false),
        // Character normalization of a DNS host must keep its IDNA name (a QA sweep: NFC
        // reordered U+0345, which IDNA maps to ι, and wrote another domain).
        c(
            "normalize/syntax+nfc",
            e(
                norm(Rungs {
                    nfc: true,
                    ..Rungs::level(Level::Syntax)
                }),
                auto,
            ),
            false,
        ),
        c(
            "normalize/scheme+nfkc",
            e(
                norm(Rungs {
                    nfkc: true,
                    ..Rungs::level(Level::Scheme)
                }),
                auto,
            ),
            false,
        ),
        c(
            "normalize/scheme-as-uri",
            e(
                Mode::Normalize {
                    rungs: Rungs::level(Level::Scheme),
                    as_uri: true,
                },
                auto,
            ),
            false,
        ),
        c("check", e(Mode::Check { uri_only: false }, auto), false),
        c("leiri-to-iri", e(Mode::LeiriToIri, auto), false),
        c("resolve+to-uri", e(Mode::ToUri, auto), true),
        c(
            "resolve+normalize/syntax",
            e(norm(Rungs::level(Level::Syntax)), auto),
            true,
        ),
    ]
}

/// A config ready to run: its worker, the parsed and raw bases, a reusable chunk result.
pub struct Runner {
    /// The config.
    pub config: Config,
    worker: Worker,
    bases: Vec<(Arc<[u8]>, Url)>,
    res: ChunkOut,
}

impl Runner {
    /// A runner for `config`.
    pub fn new(config: Config) -> Self {
        let worker = Worker::new(config.opts);
        let bases = BASES
            .iter()
            .map(|b| {
                (
                    Arc::from(b.as_bytes()),
                    Url::parse(b).expect("the bases parse"),
                )
            })
            .collect();
        Runner {
            config,
            worker,
            bases,
            res: ChunkOut::default(),
        }
    }

    /// Runs `line` (no LF) the way the engine does, resolved against base `k` (mod the number
    /// of bases) when the config resolves. `None` when the line is an error, or carries one of
    /// the [`ANNOUNCED`] warnings (the difference is reported, as issue 16 decides); else the
    /// written line and the base its reading is judged against.
    pub fn run(&mut self, line: &[u8], k: usize) -> Option<(Vec<u8>, Option<Url>)> {
        let base = if self.config.resolve {
            let (raw, url) = &self.bases[k % self.bases.len()];
            self.worker
                .set_base(iribulk::engine::Base::Fixed(raw.clone()));
            Some(url.clone())
        } else {
            None
        };
        self.worker.convert_chunk_naive(line, &mut self.res);
        if self
            .res
            .issues
            .iter()
            .any(|i| !i.warning || ANNOUNCED.contains(&i.err.kind.code()))
        {
            return None;
        }
        let mut out = self.res.render(line);
        if out.last() == Some(&b'\n') {
            out.pop();
        }
        Some((out, base))
    }

    /// What the last [`Self::run`] gave: the chunk's output, issues and stats (for
    /// `tests/host_integrity.rs`, which compares it with the library API's answer).
    #[allow(dead_code)] // not used by the fuzz targets
    pub fn last(&self) -> &ChunkOut {
        &self.res
    }

    /// Runs and judges `line`: the written output and the violation, if the rule breaks.
    pub fn check(&mut self, line: &[u8], k: usize) -> Option<(Vec<u8>, Violation)> {
        let (out, base) = self.run(line, k)?;
        let v = judge(line, &out, base.as_ref())?;
        Some((out, v))
    }
}

/// Default-ignorable code points that mapping deletes from hosts (UTS #46 "ignored", Nameprep
/// B.1): the cause "ignorable" of the tally.
fn is_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x00AD | 0x034F | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
        | 0x200B | 0x200E | 0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164
        | 0xFE00..=0xFE0F | 0xFEFF | 0xFFA0 | 0x1BCA0..=0x1BCA3 | 0xE0000..=0xE0FFF)
}

/// The likely cause of a violation, from the input: the classes of the tally (the phase-2 work
/// list of issue 16), in priority order.
pub fn cause(input: &[u8], v: &Violation) -> &'static str {
    if v.field.starts_with("bad-ace")
        || v.field.starts_with("display-unsafe")
        || v.field.starts_with("decoded")
    {
        return v.field;
    }
    let s = String::from_utf8_lossy(input);
    let lower = s.to_ascii_lowercase();
    if s.contains('\\') {
        return "backslash";
    }
    if s.contains(['\t', '\r', '\n']) {
        return "tab or cr";
    }
    if input.first().is_some_and(|&b| b <= b' ') || input.last().is_some_and(|&b| b <= b' ') {
        return "leading or trailing space or control";
    }
    if lower.starts_with("blob:") {
        return "blob inner url";
    }
    if lower.starts_with("///") || v.input.contains("empty host") {
        return "no or empty authority";
    }
    // No authority, or an empty one, before a special scheme's path (http:/x, http:x,
    // http:///x; file:x, which a browser resolves against a file base keeping its host).
    if let Some(colon) = lower.find(':') {
        let scheme = &lower[..colon];
        let rest = &lower[colon + 1..];
        if SPECIAL.contains(&scheme) && (!rest.starts_with("//") || rest.starts_with("///")) {
            return "no or empty authority";
        }
    }
    let numeric = |w: &str| {
        w.split("://")
            .nth(1)
            .and_then(|r| r.split(['/', ':', '@']).next())
            .is_some_and(|h| {
                h.split('.')
                    .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
            })
    };
    if numeric(&v.input)
        || numeric(&v.output)
        || v.input.contains("Ipv4")
        || v.output.contains("Ipv4")
    {
        return "ipv4 reading";
    }
    if s.contains(['\u{200C}', '\u{200D}']) {
        return "joiner";
    }
    if s.contains(['ß', 'ς']) {
        return "deviation character";
    }
    if s.chars().any(is_ignorable) {
        return "ignorable character";
    }
    if s.chars()
        .any(|c| !c.is_ascii() && iribulk::host::display::skeleton_has_delimiter(c))
    {
        return "delimiter look-alike";
    }
    if s.contains(' ') {
        return "space";
    }
    if ["%2f", "%5c", "%40", "%3a", "%2e", "%3f", "%23"]
        .iter()
        .any(|p| lower.contains(p))
    {
        return "percent-encoded delimiter";
    }
    if lower.contains("xn--") {
        return "ace label";
    }
    if !s.is_ascii() {
        return "non-ascii host";
    }
    "other"
}

/// The causes still open (the causes of `KNOWN_VIOLATIONS` in `tests/host_integrity.rs`,
/// which checks that both lists agree): the fuzz target tolerates them. Empty since issue 16's
/// phase 2 and the `blob:` inner-authority `\` case: every violation is a finding.
pub const OPEN_CAUSES: &[&str] = &[];

/// The fuzz target `host_integrity`: the first byte picks the config and the base, the rest up
/// to the first LF is the line. Panics on a violation whose cause is not in `tolerated` (the
/// classes still open in the tests' KNOWN_VIOLATIONS; empty once issue 16 is done).
pub fn fuzz_one(data: &[u8], tolerated: &[&str]) {
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    let line = rest.split(|&b| b == b'\n').next().unwrap_or_default();
    let configs = configs();
    let config = configs[sel as usize % configs.len()].clone();
    let name = config.name;
    let mut runner = Runner::new(config);
    if let Some((out, v)) = runner.check(line, (sel as usize) / configs.len()) {
        let c = cause(line, &v);
        assert!(
            tolerated.contains(&c),
            "{name}: {c}: {:?} -> {:?}: {} {} -> {}",
            String::from_utf8_lossy(line),
            String::from_utf8_lossy(&out),
            v.field,
            v.input,
            v.output
        );
    }
}
