//! Options of the converters, with their defaults.
//!
//! The bottom layer with [`crate::error`]: it imports nothing from the rest of the crate.

/// How the host (`ireg-name`) of an authority is mapped (RFC 3987 §3.1, 3987bis §3.4).
///
/// All-ASCII hosts are never changed by any mode (contract item 2): only hosts with non-ASCII
/// characters go through IDNA or percent-encoding. `host::idna_for` turns a mode and a scheme
/// into the IDNA to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HostMode {
    /// The default. IDNA (UTS #46, as [`HostMode::Uts46`]) for the schemes whose host is a DNS
    /// name — [`DNS_SCHEMES`] — and percent-encoding ([`HostMode::Percent`]) for every other
    /// scheme and for references without a scheme.
    Auto,
    /// UTS #46 non-transitional ToASCII (the `idna` crate) with RFC 3987's UseSTD3ASCIIRules:
    /// STD3 ASCII deny list, hyphen checks, DNS lengths (labels 1–63 octets, name ≤ 253, a
    /// trailing root dot kept).
    Uts46,
    /// RFC 3490 ToASCII (IDNA2003) exactly: Nameprep (RFC 3491, Unicode 3.2), Punycode, ACE
    /// prefix, with these flags ([`HostMode::IDNA2003`] has RFC 3987's).
    Idna2003(Idna2003Flags),
    /// Percent-encode the host like any other component (3987bis §3.4.1).
    Percent,
}

/// Schemes whose host is a DNS name, for [`HostMode::Auto`] (compared ASCII case-insensitively).
pub const DNS_SCHEMES: &[&str] = &[
    "http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh", "telnet", "gopher", "git", "irc",
    "ircs", "rtsp", "rtsps", "nntp", "ldap", "ldaps", "imap", "pop", "smtp", "xmpp",
];

/// What to do with bytes that are not UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvalidUtf8 {
    /// The line is an error `invalid-utf8` (the default).
    Error,
    /// Each byte that is not part of a valid UTF-8 sequence is percent-encoded (lossless, for
    /// lines in a legacy encoding), counted as a repair.
    Percent,
}

/// Opt-in repairs of what RFC 3987 §3.1 says must not be converted (`--repair LIST`): `[` `]`,
/// `%` and `#` "MUST NOT be converted", so by default a line that holds them where a URI
/// cannot is an error (contract item 4). §3.1 also allows "percent-encoding of these
/// characters as a preprocessing step to extract the actual IRI" for formats that used
/// earlier definitions: crawled links are such a format. Each repair is counted as a repair and
/// reported as a warning with its own code. `--strict` refuses repairs: with it these stay
/// errors. Default: none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Repairs {
    /// `brackets`: `[` and `]` outside an IP literal (RFC 3986 §3.2.2) become `%5B` `%5D`.
    pub brackets: bool,
    /// `percent`: a `%` not followed by two hex digits (RFC 3986 §2.1) becomes `%25`.
    pub percent: bool,
    /// `hash`: every `#` after the first (RFC 3986 §3.5) becomes `%23`.
    pub hash: bool,
}

impl Repairs {
    /// No repair (the default).
    pub const NONE: Repairs = Repairs {
        brackets: false,
        percent: false,
        hash: false,
    };

    /// Every repair.
    pub const ALL: Repairs = Repairs {
        brackets: true,
        percent: true,
        hash: true,
    };

    /// The names of `--repair`, in order.
    pub const NAMES: [&'static str; 3] = ["brackets", "percent", "hash"];

    /// True if any repair is on.
    pub fn any(self) -> bool {
        self.brackets || self.percent || self.hash
    }

    /// Parses a comma-separated list of [`Repairs::NAMES`] (`brackets,hash`); `all` turns on
    /// every one. An unknown name is an error naming it.
    pub fn parse(list: &str) -> Result<Repairs, String> {
        let mut r = Repairs::NONE;
        for name in list.split(',').map(str::trim) {
            match name {
                "brackets" => r.brackets = true,
                "percent" => r.percent = true,
                "hash" => r.hash = true,
                "all" => r = Repairs::ALL,
                _ => {
                    return Err(format!(
                        "unknown repair '{name}' (the repairs are: {}, or all)",
                        Repairs::NAMES.join(", ")
                    ))
                }
            }
        }
        Ok(r)
    }
}

/// Options of the IRI→URI conversion. Every field is documented with its default; build with
/// [`ToUriOptions::default`] and the setters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToUriOptions {
    /// Host mapping. Default [`HostMode::Auto`].
    pub host: HostMode,
    /// When IDNA fails, percent-encode the host instead of failing the line (counted as a
    /// fallback). Default `false` (3987bis §3.4.2: "the entire IRI conversion fails").
    pub host_fallback_percent: bool,
    /// Turn repairs (percent-encoded disallowed ASCII) and warnings (bidi formatting, private
    /// use outside the query, non-`ucschar`) into errors. Default `false`.
    pub strict: bool,
    /// LEIRI input (3987bis §6): percent-encode controls instead of failing, and do not warn
    /// about the characters LEIRIs allow. Default `false`.
    pub leiri: bool,
    /// Bytes that are not UTF-8. Default [`InvalidUtf8::Error`].
    pub invalid_utf8: InvalidUtf8,
    /// Opt-in repairs of `[` `]`, `%` and a second `#` (ignored with `strict`). Default
    /// [`Repairs::NONE`].
    pub repair: Repairs,
    /// `--trim`: remove what browsers strip before parsing (C0 controls and spaces at either
    /// end of the line, TAB/CR/LF anywhere; WHATWG URL §4.4) from special-scheme references and
    /// references of any scheme with an authority (`//`) instead of failing them with `browser-stripped`; counted as a repair. Default `false`.
    pub trim: bool,
}

impl Default for ToUriOptions {
    fn default() -> Self {
        ToUriOptions {
            host: HostMode::Auto,
            host_fallback_percent: false,
            strict: false,
            leiri: false,
            invalid_utf8: InvalidUtf8::Error,
            repair: Repairs::NONE,
            trim: false,
        }
    }
}

impl ToUriOptions {
    /// Sets [`ToUriOptions::host`].
    pub fn host(mut self, m: HostMode) -> Self {
        self.host = m;
        self
    }
    /// Sets [`ToUriOptions::host_fallback_percent`].
    pub fn host_fallback_percent(mut self, yes: bool) -> Self {
        self.host_fallback_percent = yes;
        self
    }
    /// Sets [`ToUriOptions::strict`].
    pub fn strict(mut self, yes: bool) -> Self {
        self.strict = yes;
        self
    }
    /// Sets [`ToUriOptions::leiri`].
    pub fn leiri(mut self, yes: bool) -> Self {
        self.leiri = yes;
        self
    }
    /// Sets [`ToUriOptions::invalid_utf8`].
    pub fn invalid_utf8(mut self, v: InvalidUtf8) -> Self {
        self.invalid_utf8 = v;
        self
    }
    /// Sets [`ToUriOptions::repair`].
    pub fn repair(mut self, r: Repairs) -> Self {
        self.repair = r;
        self
    }
    /// The options a base (`--base`, `--base-field`) is checked with: this run's host mode
    /// (`host`, `host_fallback_percent`), `strict` and `repair`, the rest default (the other
    /// options are the line's, not the base's). [`crate::base_problem_with`] and the engine's
    /// `--base-field` check.
    pub fn for_base(&self) -> Self {
        ToUriOptions::default()
            .host(self.host)
            .host_fallback_percent(self.host_fallback_percent)
            .strict(self.strict)
            .repair(self.repair)
    }
    /// Sets [`ToUriOptions::trim`].
    pub fn trim(mut self, yes: bool) -> Self {
        self.trim = yes;
        self
    }
}

impl HostMode {
    /// IDNA2003 with the flags RFC 3987 §3.1 asks for when converting
    /// ([`Idna2003Flags::CONVERT`]).
    pub const IDNA2003: HostMode = HostMode::Idna2003(Idna2003Flags::CONVERT);
}

/// The flags of IDNA2003 ToASCII and ToUnicode (RFC 3490 §4); `host::idna2003` names them `Flags`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Idna2003Flags {
    /// `AllowUnassigned` (RFC 3490 §4 step 1, RFC 3454 §7): when TRUE, code points unassigned in
    /// Unicode 3.2 (RFC 3454 table A.1) pass through Nameprep; when FALSE they are an error
    /// (`idna2003::Error::Unassigned`).
    pub allow_unassigned: bool,
    /// `UseSTD3ASCIIRules` (RFC 3490 §4 step 3, §4.1 step 3): when TRUE, a label must not contain
    /// ASCII other than letters, digits and hyphen-minus (`Std3`) and must not begin or
    /// end with a hyphen-minus (`Hyphen`).
    pub use_std3_ascii_rules: bool,
}

impl Idna2003Flags {
    /// Both flags TRUE, as RFC 3987 §3.1 wants when converting IRIs to URIs: "with the flag
    /// UseSTD3ASCIIRules set to TRUE, and with the flag AllowUnassigned set to FALSE for creating
    /// IRIs and set to TRUE otherwise".
    pub const CONVERT: Idna2003Flags = Idna2003Flags {
        allow_unassigned: true,
        use_std3_ascii_rules: true,
    };
}

/// True if `scheme` is in [`DNS_SCHEMES`] (ASCII case-insensitive).
pub fn is_dns_scheme(scheme: &[u8]) -> bool {
    DNS_SCHEMES
        .iter()
        .any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
}
