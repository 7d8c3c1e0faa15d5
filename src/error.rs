//! Error and warning kinds.
//!
//! The hot path passes around [`LineError`], a small `Copy` value: a [`ErrorKind`] and the byte
//! offset in the line where the problem starts. Messages and line numbers are computed only when
//! the report is written.

use std::fmt;

/// Why IDNA processing of a host failed (RFC 3490 §4.1, UTS #46 §4, RFC 3987 §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdnaReason {
    /// The raw host is longer than [`crate::host::MAX_RAW_HOST`] bytes (checked before any
    /// mapping, so hostile hosts cost linear time).
    RawTooLong,
    /// A raw label is longer than [`crate::host::MAX_RAW_LABEL`] bytes (checked before Nameprep).
    RawLabelTooLong,
    /// An IDNA2003 step failed (RFC 3490 §4.1); the inner value says which.
    Idna2003(crate::host::idna2003::Error),
    /// UTS #46 ToASCII reported an error (disallowed code point, invalid Punycode, bidi or
    /// CONTEXTJ rule, hyphen rule, STD3 ASCII deny list, or DNS length).
    Uts46,
    /// The percent-encoded octets of the host do not decode to UTF-8 (3987bis §3.4.2), so the
    /// host cannot go through IDNA.
    PercentNotUtf8,
    /// The IDNA output holds characters that a reg-name cannot (delimiters, spaces, controls:
    /// possible only with IDNA2003 without UseSTD3ASCIIRules).
    NotRegName,
    /// `check` mode: an all-ASCII host of a DNS scheme is not a DNS name (STD3 letters, digits
    /// and hyphen, no leading or trailing hyphen; labels 1–63 octets; name ≤ 253 octets).
    AsciiHostName,
}

impl IdnaReason {
    /// A short English explanation.
    pub fn reason(self) -> &'static str {
        match self {
            IdnaReason::RawTooLong => "host longer than 1024 bytes before mapping",
            IdnaReason::RawLabelTooLong => "host label longer than 255 bytes before mapping",
            IdnaReason::Idna2003(e) => e.reason(),
            IdnaReason::Uts46 => {
                "UTS #46 ToASCII failed (disallowed character, invalid punycode, bidi, \
                 CONTEXTJ, hyphen, STD3 or DNS length rule)"
            }
            IdnaReason::PercentNotUtf8 => "percent-encoded octets in the host are not UTF-8",
            IdnaReason::NotRegName => {
                "IDNA output holds a delimiter, space, control or new label dot \
                 (not the same reg-name, RFC 3986 §3.2.2)"
            }
            IdnaReason::AsciiHostName => {
                "not a DNS host name (STD3 letters-digits-hyphen, labels 1-63 octets, name at most 253)"
            }
        }
    }
}

/// The kind of a problem found in one line. Each has a stable code (see [`ErrorKind::code`]).
///
/// The codes are part of the public interface: the error report and `--stats json` use them,
/// and they never change meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// `invalid-utf8`: the line is not UTF-8 (RFC 3987 §3.1 step 1c: an IRI is characters).
    InvalidUtf8,
    /// `control-char`: a C0 control, DEL or C1 control (RFC 3987 §2.2 allows none; 3987bis
    /// §6.2 lets LEIRI mode percent-encode them).
    ControlChar,
    /// `disallowed-ascii`: printable ASCII not allowed in URIs (`space " < > \ ^ ` { | }`), in
    /// strict mode (RFC 3987 §3.1: "the conversion SHOULD fail").
    DisallowedAscii,
    /// `bad-percent`: a `%` not followed by two hex digits (RFC 3986 §2.1; RFC 3987 §3.1 says
    /// `%` MUST NOT be converted, so the line cannot be repaired).
    BadPercent,
    /// `extra-hash`: a second `#` (RFC 3986 §3.5 allows none in the fragment).
    ExtraHash,
    /// `bad-bracket`: `[` or `]` outside an IP literal (RFC 3986 §3.2.2).
    BadBracket,
    /// `extra-at`: a second `@` in the authority (RFC 3986 §3.2.1).
    ExtraAt,
    /// `bad-scheme`: the text before the first `:` is not a scheme (RFC 3986 §3.1), and a
    /// relative reference cannot have a `:` in its first segment (RFC 3986 §4.2).
    BadScheme,
    /// `bad-ip-literal`: malformed IP literal (RFC 3986 §3.2.2 IPv6address / IPvFuture; zone
    /// identifiers are not allowed).
    BadIpLiteral,
    /// `bad-port`: the port is not all digits (RFC 3986 §3.2.3).
    BadPort,
    /// `idna`: the host could not be converted with IDNA (RFC 3987 §3.1, 3987bis §3.4.2).
    Idna(IdnaReason),
    /// `line-too-long`: the line is longer than the configured cap.
    LineTooLong,
    /// `missing-field`: `--field N` was given and the record has fewer than N fields.
    MissingField,
    /// `bidi-format`: a bidi formatting character (RFC 3987 §4.1). A warning unless strict.
    BidiFormat,
    /// `private-use`: a private-use character outside the query (RFC 3987 §2.2). A warning
    /// unless strict.
    PrivateUse,
    /// `not-ucschar`: a character that is neither `ucschar` nor `iprivate` (RFC 3987 §2.2),
    /// such as a noncharacter or a tag character. A warning unless strict.
    NotUcschar,
    /// `non-ascii`: `check --uri`: a URI has no characters beyond ASCII (RFC 3986 §2).
    NonAscii,
    /// `bidi-mixed`: `check`: a component mixes right-to-left and left-to-right characters
    /// (RFC 3987 §4.2 rule 1).
    BidiMixed,
    /// `bidi-boundary`: `check`: a component with right-to-left characters does not start and
    /// end with one (RFC 3987 §4.2 rule 2).
    BidiBoundary,
    /// `compat-char`: `check` warning: a compatibility character, changed by NFKC, such as a
    /// full-width Latin letter or half-width Katakana (RFC 3987 §6.1 b, 3987bis §5.1).
    CompatChar,
    /// `leading-combining`: `check` warning: a component starts with a combining mark
    /// (3987bis §5.1).
    LeadingCombining,
    /// `joiner-context`: `check` warning: ZWJ or ZWNJ not after a virama (RFC 5892 CONTEXTJ,
    /// 3987bis §5.1).
    JoinerContext,
    /// `missing-host`: `http https ws wss ftp` with no authority or an empty host (`http:/x`,
    /// `http:x`, `http:///x`): RFC 9110 §4.2.1 "A sender MUST NOT generate an "http" URI with
    /// an empty host identifier. A recipient that processes such a URI reference MUST reject
    /// it"; RFC 6455 §3 the same for `ws`/`wss`. A browser reads the path as the host.
    MissingHost,
    /// `browser-stripped`: TAB, CR or LF before the path, or a C0 control or space at either
    /// end of the line, in a special-scheme reference: browsers remove them (WHATWG URL
    /// §4.4 basic URL parser, first steps), so percent-encoding them would change the host a
    /// browser reads. `--trim` removes them instead (a repair).
    BrowserStripped,
    /// `backslash-reference`: a reference starting with `\\`, `/\` or `\/` against a
    /// special base: RFC 3986 §4.2 reads a relative path, a browser (WHATWG URL §4.4, special
    /// relative slash state) a network-path reference to another host.
    BackslashReference,
    /// `drive-letter-reference`: a reference whose path starts with a Windows drive letter
    /// (`/c:/x`, `c|/x`) against a `file` base: browsers drop the base's host there and keep
    /// the drive letter through `..` (WHATWG URL §4.4 file state, RFC 8089 Appendix E.2);
    /// RFC 3986 §5.2 keeps the host.
    DriveLetterReference,
    /// `idna2003-differs`: warning (error with `--strict`): IDNA2003 (RFC 3490, kept as
    /// `--host idna2003` asks) gives another host than UTS #46 non-transitional (what
    /// browsers use): deviation characters `ß ς`, joiners, characters unassigned in Unicode
    /// 3.2. An error always when Nameprep deletes a joiner UTS #46 refuses (`pay\u{200D}pal`).
    Idna2003Differs,
    /// `host-char-removed`: warning (error with `--strict`): host mapping deleted this
    /// character (UTS #46 §5 "ignored", RFC 3454 table B.1 in Nameprep), e.g. U+3164.
    HostCharRemoved(char),
    /// `bad-ace`: `check`: an `xn--` label that is not valid Punycode or does not decode to a
    /// valid U-label (RFC 5891 §5.4, §4.4).
    BadAce,
    /// `ambiguous-ipv4`: a reg-name that browsers read as an IPv4 address (WHATWG URL §3.5
    /// "ends in a number": last label all digits or `0x…`, e.g. `0x7f.1`, `127.1`): a warning
    /// in `check`; an error where conversion (IDNA, percent-decoding) would produce one.
    AmbiguousIpv4,
    /// `display-unsafe`: `check` warning: an `xn--` label that display safety keeps in ACE
    /// form (UTS #39 §5.2 mixed scripts, whole-script confusable, delimiter look-alike).
    DisplayUnsafe,
}

impl ErrorKind {
    /// Every code, in documentation order (for reports, stats and tests).
    pub const ALL_CODES: &'static [&'static str] = &[
        "invalid-utf8",
        "control-char",
        "disallowed-ascii",
        "bad-percent",
        "extra-hash",
        "bad-bracket",
        "extra-at",
        "bad-scheme",
        "bad-ip-literal",
        "bad-port",
        "idna",
        "line-too-long",
        "missing-field",
        "bidi-format",
        "private-use",
        "not-ucschar",
        "non-ascii",
        "bidi-mixed",
        "bidi-boundary",
        "compat-char",
        "leading-combining",
        "joiner-context",
        "missing-host",
        "browser-stripped",
        "backslash-reference",
        "drive-letter-reference",
        "idna2003-differs",
        "host-char-removed",
        "bad-ace",
        "ambiguous-ipv4",
        "display-unsafe",
    ];

    /// The stable code of this kind, as printed in reports.
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::InvalidUtf8 => "invalid-utf8",
            ErrorKind::ControlChar => "control-char",
            ErrorKind::DisallowedAscii => "disallowed-ascii",
            ErrorKind::BadPercent => "bad-percent",
            ErrorKind::ExtraHash => "extra-hash",
            ErrorKind::BadBracket => "bad-bracket",
            ErrorKind::ExtraAt => "extra-at",
            ErrorKind::BadScheme => "bad-scheme",
            ErrorKind::BadIpLiteral => "bad-ip-literal",
            ErrorKind::BadPort => "bad-port",
            ErrorKind::Idna(_) => "idna",
            ErrorKind::LineTooLong => "line-too-long",
            ErrorKind::MissingField => "missing-field",
            ErrorKind::BidiFormat => "bidi-format",
            ErrorKind::PrivateUse => "private-use",
            ErrorKind::NotUcschar => "not-ucschar",
            ErrorKind::NonAscii => "non-ascii",
            ErrorKind::BidiMixed => "bidi-mixed",
            ErrorKind::BidiBoundary => "bidi-boundary",
            ErrorKind::CompatChar => "compat-char",
            ErrorKind::LeadingCombining => "leading-combining",
            ErrorKind::JoinerContext => "joiner-context",
            ErrorKind::MissingHost => "missing-host",
            ErrorKind::BrowserStripped => "browser-stripped",
            ErrorKind::BackslashReference => "backslash-reference",
            ErrorKind::DriveLetterReference => "drive-letter-reference",
            ErrorKind::Idna2003Differs => "idna2003-differs",
            ErrorKind::HostCharRemoved(_) => "host-char-removed",
            ErrorKind::BadAce => "bad-ace",
            ErrorKind::AmbiguousIpv4 => "ambiguous-ipv4",
            ErrorKind::DisplayUnsafe => "display-unsafe",
        }
    }

    /// A one-line English message.
    pub fn message(self) -> String {
        match self {
            ErrorKind::InvalidUtf8 => "invalid UTF-8 (an IRI is a sequence of characters)".into(),
            ErrorKind::ControlChar => "control character (C0, DEL or C1) is not allowed".into(),
            ErrorKind::DisallowedAscii => {
                "ASCII character not allowed in URIs (strict mode: not repaired)".into()
            }
            ErrorKind::BadPercent => "'%' not followed by two hex digits".into(),
            ErrorKind::ExtraHash => "second '#' (the fragment cannot contain '#')".into(),
            ErrorKind::BadBracket => "'[' or ']' outside an IP literal".into(),
            ErrorKind::ExtraAt => "second '@' in the authority".into(),
            ErrorKind::BadScheme => {
                "invalid scheme, or ':' in the first segment of a relative reference".into()
            }
            ErrorKind::BadIpLiteral => {
                "malformed IP literal (RFC 3986 IPv6address/IPvFuture)".into()
            }
            ErrorKind::BadPort => "port is not all digits".into(),
            ErrorKind::Idna(r) => format!("IDNA failed: {}", r.reason()),
            ErrorKind::LineTooLong => "line longer than --max-line-bytes".into(),
            ErrorKind::MissingField => "the record has fewer fields than --field".into(),
            ErrorKind::BidiFormat => "bidi formatting character (RFC 3987 §4.1)".into(),
            ErrorKind::PrivateUse => "private-use character outside the query".into(),
            ErrorKind::NotUcschar => "character not allowed in IRIs (not ucschar)".into(),
            ErrorKind::NonAscii => "non-ASCII character in a URI (--uri)".into(),
            ErrorKind::BidiMixed => {
                "component mixes right-to-left and left-to-right characters (RFC 3987 §4.2)".into()
            }
            ErrorKind::BidiBoundary => {
                "right-to-left component does not start and end with a right-to-left character \
                 (RFC 3987 §4.2)"
                    .into()
            }
            ErrorKind::CompatChar => {
                "compatibility character that should be avoided (RFC 3987 §6.1)".into()
            }
            ErrorKind::LeadingCombining => "component starts with a combining mark".into(),
            ErrorKind::JoinerContext => "ZWJ/ZWNJ outside its context (RFC 5892)".into(),
            ErrorKind::MissingHost => {
                "special scheme with no authority or an empty host (RFC 9110 §4.2.1: must be \
                 rejected; a browser would read the path as the host)"
                    .into()
            }
            ErrorKind::BrowserStripped => {
                "TAB/CR/LF before the path, or control/space at an end of the line: browsers \
                 strip it (WHATWG URL §4.4), encoding it would change the host; see --trim"
                    .into()
            }
            ErrorKind::BackslashReference => {
                "reference starts with \\\\, /\\ or \\/ against a special base: RFC 3986 reads \
                 a relative path, a browser a network-path reference to another host"
                    .into()
            }
            ErrorKind::DriveLetterReference => {
                "reference starting with a Windows drive letter against a file base: browsers \
                 drop the base's host (WHATWG URL §4.4 file state)"
                    .into()
            }
            ErrorKind::Idna2003Differs => {
                "IDNA2003 host differs from UTS #46 non-transitional (what browsers use)".into()
            }
            ErrorKind::HostCharRemoved(c) => format!(
                "host mapping deleted U+{:04X} (UTS #46 ignored / Nameprep B.1)",
                c as u32
            ),
            ErrorKind::BadAce => {
                "xn-- label is not valid Punycode or not a valid U-label (RFC 5891 §5.4)".into()
            }
            ErrorKind::AmbiguousIpv4 => {
                "host name that browsers read as an IPv4 address (WHATWG URL ends-in-a-number)"
                    .into()
            }
            ErrorKind::DisplayUnsafe => {
                "xn-- label unsafe to display in Unicode (UTS #39 §5.2, confusable, look-alike)"
                    .into()
            }
        }
    }

    /// Index of [`ErrorKind::code`] in [`ErrorKind::ALL_CODES`].
    pub fn index(self) -> usize {
        let code = self.code();
        Self::ALL_CODES
            .iter()
            .position(|&c| c == code)
            .expect("every code is listed")
    }

    /// True for the kinds that are warnings unless strict mode makes them errors.
    pub fn is_warning_kind(self) -> bool {
        matches!(
            self,
            ErrorKind::BidiFormat
                | ErrorKind::PrivateUse
                | ErrorKind::NotUcschar
                | ErrorKind::CompatChar
                | ErrorKind::LeadingCombining
                | ErrorKind::JoinerContext
                | ErrorKind::Idna2003Differs
                | ErrorKind::HostCharRemoved(_)
                | ErrorKind::AmbiguousIpv4
                | ErrorKind::DisplayUnsafe
        )
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

/// An error in one line: what, and at which byte offset (0-based) of the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// 0-based byte offset in the line (the converted field, in `--field` mode).
    pub offset: usize,
}

impl LineError {
    /// A new error.
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        LineError { kind, offset }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for LineError {}
