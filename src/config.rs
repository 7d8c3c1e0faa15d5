//! Options of the converters, with their defaults.

use crate::host::idna2003;

/// How the host (`ireg-name`) of an authority is mapped (RFC 3987 §3.1, 3987bis §3.4).
///
/// All-ASCII hosts are never changed by any mode (contract item 2): only hosts with non-ASCII
/// characters go through IDNA or percent-encoding.
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
    /// prefix, with the flags of [`ToUriOptions::idna2003_flags`].
    Idna2003,
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
    /// Flags of IDNA2003 ToASCII for [`HostMode::Idna2003`]. Default: AllowUnassigned and
    /// UseSTD3ASCIIRules both TRUE, as RFC 3987 §3.1 asks when converting.
    pub idna2003_flags: idna2003::Flags,
    /// `--trim`: remove what browsers strip before parsing (C0 controls and spaces at either
    /// end of the line, TAB/CR/LF anywhere; WHATWG URL §4.4) from special-scheme references
    /// instead of failing them with `browser-stripped`; counted as a repair. Default `false`.
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
            idna2003_flags: idna2003::Flags::CONVERT,
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
    /// Sets [`ToUriOptions::trim`].
    pub fn trim(mut self, yes: bool) -> Self {
        self.trim = yes;
        self
    }
    /// Sets [`ToUriOptions::idna2003_flags`].
    pub fn idna2003_flags(mut self, f: idna2003::Flags) -> Self {
        self.idna2003_flags = f;
        self
    }
}

impl HostMode {
    /// The IDNA that maps a host of `scheme` in this mode, or `None` for percent-encoding:
    /// an explicit IDNA mode applies whatever the scheme (contract item 1), `Auto` uses UTS #46
    /// for [`DNS_SCHEMES`] only.
    pub fn idna_for(
        self,
        scheme: Option<&[u8]>,
        idna2003_flags: idna2003::Flags,
    ) -> Option<crate::host::Idna> {
        use crate::host::Idna;
        match self {
            HostMode::Percent => None,
            HostMode::Uts46 => Some(Idna::Uts46),
            HostMode::Idna2003 => Some(Idna::Idna2003(idna2003_flags)),
            HostMode::Auto => scheme.filter(|s| is_dns_scheme(s)).map(|_| Idna::Uts46),
        }
    }
}

/// True if `scheme` is in [`DNS_SCHEMES`] (ASCII case-insensitive).
pub fn is_dns_scheme(scheme: &[u8]) -> bool {
    DNS_SCHEMES
        .iter()
        .any(|s| s.as_bytes().eq_ignore_ascii_case(scheme))
}
