//! Error and warning kinds.
//!
//! The hot path passes around [`LineError`], a small `Copy` value: a [`ErrorKind`] and the byte
//! offset in the line where the problem starts. Messages and line numbers are computed only when
//! the report is written.
//!
//! Every kind comes from one table (the `error_kinds!` invocation below): its code, its
//! [`Severity`], its static message and the RFC section it enforces. [`ErrorKind::code`],
//! [`ErrorKind::message`], [`ErrorKind::severity`], [`ErrorKind::rfc`], [`ErrorKind::ALL_CODES`]
//! and [`ErrorKind::index`] are all generated from it, so they cannot disagree. A reason that
//! needs data (why IDNA failed) is not part of the message: it is [`ErrorKind::detail`].
//!
//! This module is the bottom layer: it imports nothing from the rest of the crate.

use std::fmt;

/// Escapes `text` (any bytes) for a report field or a message: printable ASCII and valid UTF-8
/// stay as they are; control bytes, invalid UTF-8 bytes, TAB, CR and LF become `\xHH`; a
/// backslash becomes `\\`; format characters (general category Cf: bidi controls such as
/// U+202E and U+2066..U+2069, U+200B..U+200F, U+061C, U+FEFF, ...) and the line and paragraph
/// separators U+2028/U+2029 become `\u{HHHH}`, so that a row never displays reordered, hides
/// characters or breaks in two (NEL, U+0085, is a line break to some readers). The report's
/// input field ([`crate::engine::report::escape_input`]) and the hosts quoted in a message
/// ([`crate::convert::readings`]) are written this way.
pub fn escape_text(text: &[u8], out: &mut String) {
    use std::fmt::Write as _;
    let mut s = text;
    while !s.is_empty() {
        match std::str::from_utf8(s) {
            Ok(v) => {
                push_escaped_str(v, out);
                break;
            }
            Err(e) => {
                let (good, bad) = s.split_at(e.valid_up_to());
                push_escaped_str(std::str::from_utf8(good).expect("valid prefix"), out);
                let n = e.error_len().unwrap_or(bad.len());
                for &b in &bad[..n] {
                    let _ = write!(out, "\\x{b:02X}");
                }
                s = &bad[n..];
            }
        }
    }
}

/// A format character or a line or paragraph separator: what [`escape_text`] writes as
/// `\u{HHHH}`.
pub fn display_unsafe(c: char) -> bool {
    is_format_char(c) || c == '\u{2028}' || c == '\u{2029}'
}

fn push_escaped_str(s: &str, out: &mut String) {
    use std::fmt::Write as _;
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7F}' || ('\u{80}'..='\u{9F}').contains(&c) => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "\\x{b:02X}");
                }
            }
            c if display_unsafe(c) => {
                let _ = write!(out, "\\u{{{:04X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
}

/// General category Cf (format characters), Unicode 15. Also to-iri's rule for what stays
/// in `%HH` (`convert::to_iri`; its test compares the two with general category Cf on every
/// code point).
pub(crate) const fn is_format_char(c: char) -> bool {
    matches!(c as u32,
        0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x890..=0x891 | 0x8E2 | 0x180E
        | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF
        | 0xFFF9..=0xFFFB | 0x110BD | 0x110CD | 0x13430..=0x1343F | 0x1BCA0..=0x1BCA3
        | 0x1D173..=0x1D17A | 0xE0001 | 0xE0020..=0xE007F)
}

/// How a kind is counted when strict mode is off (`--strict` makes every kind an error).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The line cannot be converted: kept or skipped, and reported.
    Error,
    /// Reported, the line converted anyway.
    Warning,
    /// The converter repairs the problem (percent-encodes the character); the kind is reported
    /// only in strict mode, where the repair is refused.
    Repair,
}

/// Why IDNA processing of a host failed (RFC 3490 §4.1, UTS #46 §4, RFC 3987 §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdnaReason {
    /// The raw host is longer than 1024 bytes (`host::MAX_RAW_HOST`; checked before any
    /// mapping, so hostile hosts cost linear time).
    RawTooLong,
    /// A raw label is longer than 255 bytes (`host::MAX_RAW_LABEL`; checked before Nameprep).
    RawLabelTooLong,
    /// An IDNA2003 step failed (RFC 3490 §4.1); the inner value says which.
    Idna2003(Idna2003Error),
    /// UTS #46 ToASCII reported an error; the value says which rule on which label
    /// (disallowed code point U+XXXX, invalid Punycode, the bidi rule of RFC 5893, CONTEXTJ,
    /// hyphens, STD3 ASCII deny list, DNS length), found by
    /// `host::uts46_reason::diagnose` on the cold path.
    Uts46(Uts46Failure),
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
            IdnaReason::Uts46(_) => {
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

/// The full reason: [`IdnaReason::reason`], except for a UTS #46 failure, which names the
/// rule and the label (`UTS #46 ToASCII: label 2: disallowed code point U+E000`).
impl fmt::Display for IdnaReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdnaReason::Uts46(d) if d.rule != Uts46Rule::Unknown => d.fmt(f),
            r => f.write_str(r.reason()),
        }
    }
}

/// The rule of UTS #46 (and the RFCs it cites) that a host breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Uts46Rule {
    /// A code point that UTS #46 maps to `disallowed` (§4 step 1, §4.1 V7), or a code point of
    /// a Punycode label that is not `valid`.
    Disallowed(char),
    /// An ASCII character outside letters, digits and `-`, or a character that maps to one
    /// (U+00A0 maps to a space, U+FF3F to `_`): the STD3 ASCII deny list, §4.1 V7 with
    /// UseSTD3ASCIIRules; RFC 1123 §2.1. The character as written in the host.
    Std3Ascii(char),
    /// An `xn--` label that is not valid Punycode (RFC 3492), holds non-ASCII, or decodes to
    /// nothing or to ASCII only (§4 step 4.1).
    InvalidPunycode,
    /// A Punycode label that decodes to a string not in NFC (§4.1 V1).
    NotNfc,
    /// `-` in both the 3rd and 4th positions (§4.1 V2, CheckHyphens).
    HyphenThirdFourth,
    /// A label that starts or ends with `-` (§4.1 V3, CheckHyphens).
    HyphenStartEnd,
    /// A label that starts with a combining mark (§4.1 V6).
    LeadingMark(char),
    /// ZWNJ or ZWJ outside its context (CheckJoiners: RFC 5892 Appendix A.1, A.2).
    ContextJ(char),
    /// The Bidi Rule of RFC 5893 §2 (CheckBidi), with the number of the condition (1–6).
    Bidi(u8),
    /// An empty label other than the root (VerifyDnsLength, §4.2 step 4).
    EmptyLabel,
    /// A label longer than 63 octets in its ASCII form (VerifyDnsLength; RFC 1034 §3.1).
    LabelTooLong(usize),
    /// A name longer than 253 octets in its ASCII form, root dot excluded (VerifyDnsLength).
    NameTooLong(usize),
    /// No rule could be named (should not happen; kept so that a new `idna` rule degrades
    /// to the old message instead of a wrong one).
    Unknown,
}

/// A diagnosed UTS #46 failure: the rule and the label (0-based index among the labels of the
/// mapped host; `None` for a rule of the whole name).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Uts46Failure {
    /// The rule broken.
    pub rule: Uts46Rule,
    /// The label, counted from 0 (`None`: the whole name).
    pub label: Option<usize>,
}

impl Uts46Rule {
    /// The character the rule names, as written in the host: a disallowed code point, a
    /// character that is or maps to ASCII STD3 denies, a leading mark, a joiner out of
    /// context; `None` for a rule of a label or of the name.
    pub fn character(self) -> Option<char> {
        match self {
            Uts46Rule::Disallowed(c)
            | Uts46Rule::Std3Ascii(c)
            | Uts46Rule::LeadingMark(c)
            | Uts46Rule::ContextJ(c) => Some(c),
            _ => None,
        }
    }

    /// A stable short name, for tallies and machine-readable reports.
    pub fn name(self) -> &'static str {
        match self {
            Uts46Rule::Disallowed(_) => "disallowed",
            Uts46Rule::Std3Ascii(_) => "std3-ascii",
            Uts46Rule::InvalidPunycode => "punycode",
            Uts46Rule::NotNfc => "not-nfc",
            Uts46Rule::HyphenThirdFourth => "hyphen-3-4",
            Uts46Rule::HyphenStartEnd => "hyphen-start-end",
            Uts46Rule::LeadingMark(_) => "leading-mark",
            Uts46Rule::ContextJ(_) => "contextj",
            Uts46Rule::Bidi(_) => "bidi",
            Uts46Rule::EmptyLabel => "empty-label",
            Uts46Rule::LabelTooLong(_) => "label-too-long",
            Uts46Rule::NameTooLong(_) => "name-too-long",
            Uts46Rule::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Uts46Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("UTS #46 ToASCII: ")?;
        if let Some(i) = self.label {
            write!(f, "label {}: ", i + 1)?;
        }
        match self.rule {
            Uts46Rule::Disallowed(c) => write!(f, "disallowed code point U+{:04X}", c as u32),
            Uts46Rule::Std3Ascii(c) => write!(
                f,
                "U+{:04X} is or maps to ASCII not allowed in a host name (STD3 rules: letters, \
                 digits, hyphen)",
                c as u32
            ),
            Uts46Rule::InvalidPunycode => {
                f.write_str("invalid Punycode in an xn-- label (RFC 3492)")
            }
            Uts46Rule::NotNfc => f.write_str("Punycode label does not decode to NFC"),
            Uts46Rule::HyphenThirdFourth => f.write_str("hyphens in the 3rd and 4th positions"),
            Uts46Rule::HyphenStartEnd => f.write_str("leading or trailing hyphen"),
            Uts46Rule::LeadingMark(c) => {
                write!(f, "starts with the combining mark U+{:04X}", c as u32)
            }
            Uts46Rule::ContextJ(c) => write!(
                f,
                "U+{:04X} outside its joining context (CONTEXTJ, RFC 5892 A.1/A.2)",
                c as u32
            ),
            Uts46Rule::Bidi(n) => write!(f, "breaks rule {n} of the bidi rule (RFC 5893 §2)"),
            Uts46Rule::EmptyLabel => f.write_str("empty label"),
            Uts46Rule::LabelTooLong(n) => write!(f, "label of {n} octets (DNS limit 63)"),
            Uts46Rule::NameTooLong(n) => write!(f, "name of {n} octets (DNS limit 253)"),
            Uts46Rule::Unknown => f.write_str(
                "failed (disallowed character, invalid punycode, bidi, CONTEXTJ, hyphen, STD3 \
                 or DNS length rule)",
            ),
        }
    }
}

/// Why IDNA2003 ToASCII (RFC 3490 §4.1) or Nameprep (RFC 3491) failed; `host::idna2003` names
/// it `Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Idna2003Error {
    /// After mapping and normalization the label holds a code point of one of the prohibited
    /// tables C.1.2, C.2.2, C.3, C.4, C.5, C.6, C.7, C.8 or C.9 (RFC 3491 §5, RFC 3454 §5).
    Prohibited,
    /// The label holds a code point unassigned in Unicode 3.2 (RFC 3454 table A.1) and
    /// `AllowUnassigned` is FALSE (RFC 3454 §7, RFC 3490 §4.1 step 2).
    Unassigned,
    /// The label breaks the bidi rules of RFC 3454 §6 (RFC 3491 §6): it holds both RandALCat
    /// (table D.1) and LCat (table D.2) code points, or it holds RandALCat code points but does
    /// not begin and end with one.
    Bidi,
    /// `UseSTD3ASCIIRules` is TRUE and the label holds non-LDH ASCII (RFC 3490 §4.1 step 3a).
    Std3,
    /// `UseSTD3ASCIIRules` is TRUE and the label begins or ends with a hyphen-minus (RFC 3490
    /// §4.1 step 3b).
    Hyphen,
    /// The label is empty, or Nameprep mapped it to nothing (RFC 3490 §4.1 step 8). Also an empty
    /// label inside a domain name such as `a..b` (only a single trailing root dot is allowed).
    EmptyLabel,
    /// The ASCII label would be longer than 63 octets (RFC 3490 §4.1 step 8), detected before
    /// Punycode runs where possible.
    LabelTooLong,
    /// The ASCII domain name would be longer than 253 octets, not counting a root dot (RFC 1034
    /// §3.1).
    NameTooLong,
    /// The label contains non-ASCII code points after Nameprep but already begins with the ACE
    /// prefix `xn--`, in any case (RFC 3490 §4.1 step 5).
    AcePrefix,
    /// Punycode encoding failed (RFC 3490 §4.1 step 6, RFC 3492 §6.3 overflow).
    Punycode,
    /// Nameprep turned part of the label into a full stop (NFKC of U+2024 ONE DOT LEADER is
    /// `.`, of U+2025 is `..`): the label would become several (RFC 3490 §3.1 separates
    /// labels first). Hardening against the CVE-2019-9636 class.
    DotInLabel,
    /// The raw input exceeded a cap checked before any costly work: a non-ASCII label over
    /// 255 bytes, or a domain name over 1024 bytes (the raw caps of
    /// `host::idna2003`).
    RawTooLong,
}

impl Idna2003Error {
    /// A short, stable English reason, citing the rule that failed.
    pub fn reason(self) -> &'static str {
        match self {
            Idna2003Error::Prohibited => "prohibited code point (RFC 3491 §5)",
            Idna2003Error::Unassigned => "code point unassigned in Unicode 3.2 (RFC 3454 §7)",
            Idna2003Error::Bidi => "mixed or misplaced right-to-left characters (RFC 3454 §6)",
            Idna2003Error::Std3 => {
                "ASCII other than letters, digits and hyphen (RFC 3490 §4.1 step 3a)"
            }
            Idna2003Error::Hyphen => "label begins or ends with a hyphen (RFC 3490 §4.1 step 3b)",
            Idna2003Error::EmptyLabel => "empty label (RFC 3490 §4.1 step 8)",
            Idna2003Error::LabelTooLong => "label longer than 63 octets (RFC 3490 §4.1 step 8)",
            Idna2003Error::NameTooLong => "domain name longer than 253 octets (RFC 1034 §3.1)",
            Idna2003Error::AcePrefix => {
                "non-ASCII label already begins with xn-- (RFC 3490 §4.1 step 5)"
            }
            Idna2003Error::Punycode => "Punycode encoding failed (RFC 3492 §6.3)",
            Idna2003Error::DotInLabel => {
                "Nameprep produced a full stop inside a label (RFC 3490 §3.1)"
            }
            Idna2003Error::RawTooLong => {
                "over the raw length cap checked before Nameprep (255-byte label, 1024-byte name)"
            }
        }
    }
}

impl fmt::Display for Idna2003Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

impl std::error::Error for Idna2003Error {}

/// Builds [`ErrorKind`] and its accessors from one table, one row per kind:
/// `Variant(optional data) = "code", Severity, "message", "RFC section";`.
macro_rules! error_kinds {
    (@wild $t:ty) => { _ };
    ($(
        $(#[$doc:meta])*
        $variant:ident $(($data:ty))? = $code:literal, $sev:ident, $msg:literal, $rfc:literal;
    )*) => {
        /// The kind of a problem found in one line. Each has a stable code (see
        /// [`ErrorKind::code`]).
        ///
        /// The codes are part of the public interface: the error report and `--stats json` use
        /// them, and they never change meaning.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum ErrorKind {
            $( $(#[$doc])* $variant $(($data))?, )*
        }

        /// The data-free twin of [`ErrorKind`]: its discriminant is the index in
        /// [`ErrorKind::ALL_CODES`].
        #[derive(Clone, Copy)]
        #[repr(usize)]
        enum Slot {
            $( $variant, )*
        }

        impl ErrorKind {
            /// Every code, in documentation order (for reports, stats and tests).
            pub const ALL_CODES: &'static [&'static str] = &[$($code),*];

            const MESSAGES: &'static [&'static str] = &[$($msg),*];
            const RFCS: &'static [&'static str] = &[$($rfc),*];
            const SEVERITIES: &'static [Severity] = &[$(Severity::$sev),*];

            /// Index of this kind's code in [`ErrorKind::ALL_CODES`] (a constant discriminant,
            /// for counters indexed by kind).
            #[inline]
            pub const fn index(self) -> usize {
                let slot = match self {
                    $( ErrorKind::$variant $((error_kinds!(@wild $data)))? => Slot::$variant, )*
                };
                slot as usize
            }
        }
    };
}

error_kinds! {
    /// `invalid-utf8`: the line is not UTF-8 (RFC 3987 §3.1 step 1c: an IRI is characters).
    InvalidUtf8 = "invalid-utf8", Error,
        "invalid UTF-8 (an IRI is a sequence of characters)", "RFC 3987 §3.1";
    /// `control-char`: a C0 control, DEL or C1 control (RFC 3987 §2.2 allows none; 3987bis
    /// §6.2 lets LEIRI mode percent-encode them).
    ControlChar = "control-char", Error,
        "control character (C0, DEL or C1) is not allowed", "RFC 3987 §2.2";
    /// `disallowed-ascii`: printable ASCII not allowed in URIs (`space " < > \ ^ ` { | }`), in
    /// strict mode (RFC 3987 §3.1: "the conversion SHOULD fail").
    DisallowedAscii = "disallowed-ascii", Repair,
        "ASCII character not allowed in URIs (strict mode: not repaired)", "RFC 3987 §3.1";
    /// `bad-percent`: a `%` not followed by two hex digits (RFC 3986 §2.1; RFC 3987 §3.1 says
    /// `%` MUST NOT be converted, so the line cannot be repaired).
    BadPercent = "bad-percent", Error,
        "'%' not followed by two hex digits", "RFC 3986 §2.1";
    /// `extra-hash`: a second `#` (RFC 3986 §3.5 allows none in the fragment).
    ExtraHash = "extra-hash", Error,
        "second '#' (the fragment cannot contain '#')", "RFC 3986 §3.5";
    /// `bad-bracket`: `[` or `]` outside an IP literal (RFC 3986 §3.2.2).
    BadBracket = "bad-bracket", Error,
        "'[' or ']' outside an IP literal", "RFC 3986 §3.2.2";
    /// `extra-at`: a second `@` in the authority (RFC 3986 §3.2.1).
    ExtraAt = "extra-at", Error,
        "second '@' in the authority", "RFC 3986 §3.2.1";
    /// `bad-scheme`: the text before the first `:` is not a scheme (RFC 3986 §3.1), and a
    /// relative reference cannot have a `:` in its first segment (RFC 3986 §4.2).
    BadScheme = "bad-scheme", Error,
        "invalid scheme, or ':' in the first segment of a relative reference", "RFC 3986 §3.1";
    /// `bad-ip-literal`: malformed IP literal (RFC 3986 §3.2.2 IPv6address / IPvFuture; zone
    /// identifiers are not allowed).
    BadIpLiteral = "bad-ip-literal", Error,
        "malformed IP literal (RFC 3986 IPv6address/IPvFuture)", "RFC 3986 §3.2.2";
    /// `bad-port`: the port is not all digits (RFC 3986 §3.2.3), is above 65535 (`check`:
    /// browsers refuse it, WHATWG URL §4.4 port state), or belongs to a `file` URL, which has
    /// none (RFC 8089 §2 `file-auth`; the message said "not all digits" for `file://h:80/`).
    BadPort = "bad-port", Error,
        "bad port: not all digits, above 65535 (check), or in a file URL (which has none)",
        "RFC 3986 §3.2.3, RFC 8089 §2";
    /// `idna`: the host could not be converted with IDNA (RFC 3987 §3.1, 3987bis §3.4.2).
    Idna(IdnaReason) = "idna", Error, "IDNA failed", "RFC 3987 §3.1";
    /// `line-too-long`: the line is longer than the configured cap.
    LineTooLong = "line-too-long", Error, "line longer than --max-line-bytes", "";
    /// `missing-field`: `--field N` was given and the record has fewer than N fields.
    MissingField = "missing-field", Error,
        "the record has fewer fields than --field (or --base-field, --charset-field) names", "";
    /// `bad-base`: the record's base (`--base-field`) is not an absolute IRI: it has no
    /// scheme, or an invalid one (RFC 3986 §5.1: the base URI must be absolute; §3.1), or
    /// to-uri refuses it. The data: the code of to-uri's error (`None`: the scheme), so that
    /// the message names the fault as `--base` does (a QA sweep: `https://good.com\@evil.com/`
    /// read as a missing scheme). The offset is the base field's, or its faulty byte's (a
    /// fixed `--base` is checked when the command starts).
    BadBase(BaseFault) = "bad-base", Error,
        "the record's base (--base-field) is not an absolute IRI that to-uri accepts",
        "RFC 3986 §5.1";
    /// `bad-charset`: bytes not valid in the line's declared charset (`--charset`,
    /// `--charset-field`; RFC 3987 §3.1 step 1b cannot decode them). The offset is the column
    /// of the first byte of the first malformed sequence, in the original line.
    BadCharset = "bad-charset", Error, "bytes not valid in the declared charset",
        "RFC 3987 §3.1";
    /// `unknown-charset`: `--charset-field`: the record's label is not a WHATWG Encoding
    /// Standard label (or names the "replacement" encoding). The offset is the label's start.
    UnknownCharset = "unknown-charset", Error,
        "the record's charset label is not a WHATWG encoding label, or names the \"replacement\" \
         encoding (iso-2022-kr, hz-gb-2312...), through which no IRI can be read", "";
    /// `field-delimiter`: `--field`: the record's fields would not be the same before and after:
    /// a byte of the `--delimiter` inside a multi-byte character of a `--charset-field`
    /// record (its label was found by a split of the raw bytes), or a delimiter that NFC
    /// (U+037E GREEK QUESTION MARK → `;`) or the conversion (an IDNA2003 host without STD3
    /// rules) wrote into a field. The offset is the delimiter's column, or the converted
    /// field's first byte.
    FieldDelimiter = "field-delimiter", Error,
        "the field delimiter inside a character, or written into a field by NFC or the \
         conversion: the record would split into other fields",
        "";
    /// `bidi-format`: a bidi formatting character (RFC 3987 §4.1). A warning unless strict.
    BidiFormat = "bidi-format", Warning,
        "bidi formatting character (RFC 3987 §4.1)", "RFC 3987 §4.1";
    /// `private-use`: a private-use character outside the query (RFC 3987 §2.2). A warning
    /// unless strict.
    PrivateUse = "private-use", Warning,
        "private-use character outside the query", "RFC 3987 §2.2";
    /// `not-ucschar`: a character that is neither `ucschar` nor `iprivate` (RFC 3987 §2.2),
    /// such as a noncharacter or a tag character. A warning unless strict.
    NotUcschar = "not-ucschar", Warning,
        "character not allowed in IRIs (not ucschar)", "RFC 3987 §2.2";
    /// `non-ascii`: `check --uri`: a URI has no characters beyond ASCII (RFC 3986 §2).
    NonAscii = "non-ascii", Error, "non-ASCII character in a URI (--uri)", "RFC 3986 §2";
    /// `bidi-mixed`: `check`: a component mixes right-to-left and left-to-right characters
    /// (RFC 3987 §4.2 rule 1).
    BidiMixed = "bidi-mixed", Error,
        "component mixes right-to-left and left-to-right characters (RFC 3987 §4.2)",
        "RFC 3987 §4.2";
    /// `bidi-boundary`: `check`: a component with right-to-left characters does not start and
    /// end with one (RFC 3987 §4.2 rule 2).
    BidiBoundary = "bidi-boundary", Error,
        "right-to-left component does not start and end with a right-to-left character \
         (RFC 3987 §4.2)",
        "RFC 3987 §4.2";
    /// `compat-char`: `check` warning: a compatibility character, changed by NFKC, such as a
    /// full-width Latin letter or half-width Katakana (RFC 3987 §6.1 b, 3987bis §5.1).
    CompatChar = "compat-char", Warning,
        "compatibility character that should be avoided (RFC 3987 §6.1)", "RFC 3987 §6.1";
    /// `leading-combining`: `check` warning: a component starts with a combining mark
    /// (3987bis §5.1).
    LeadingCombining = "leading-combining", Warning,
        "component starts with a combining mark", "3987bis §5.1";
    /// `joiner-context`: `check` warning: ZWJ or ZWNJ outside its RFC 5892 Appendix A context
    /// (CONTEXTJ, 3987bis §5.1).
    JoinerContext = "joiner-context", Warning,
        "ZWJ/ZWNJ outside its context (RFC 5892 Appendix A)", "RFC 5892 Appendix A";
    /// `backslash-authority`: a `\` in the authority of an `http`, `https`, `ws`, `wss`,
    /// `ftp` or `file` reference: a browser (WHATWG URL §4.4: `\` is a path separator in
    /// special schemes) and RFC 3986 (§3.2: `\` is data) read different hosts
    /// (CVE-2019-9636 class). An error in every mode; never repaired. Also in the authority
    /// of a network-path reference (`//good.com\@evil.com/`, no scheme) without a base or
    /// against a special one: a crawl's relative link resolves against an `http(s)` page.
    BackslashAuthority = "backslash-authority", Error,
        "'\\' in the authority of a special scheme (or of a //reference, which resolves \
         against one): a browser reads the host before \
         the '\\' (WHATWG URL: a path separator), RFC 3986 reads the host after the \
         last '@' (e.g. https://good.com\\@evil.com/: a browser reads host good.com, \
         RFC 3986 reads host evil.com)", "WHATWG URL §4.4, RFC 3986 §3.2";
    /// `missing-host`: `http https ws wss ftp` with no authority or an empty host (`http:/x`,
    /// `http:x`, `http:///x`): RFC 9110 §4.2.1 "A sender MUST NOT generate an "http" URI with
    /// an empty host identifier. A recipient that processes such a URI reference MUST reject
    /// it"; RFC 6455 §3 the same for `ws`/`wss`. A browser reads the path as the host.
    MissingHost = "missing-host", Error,
        "special scheme with no authority or an empty host (RFC 9110 §4.2.1: must be \
         rejected; a browser would read the path as the host)", "RFC 9110 §4.2.1, RFC 6455 §3";
    /// `browser-stripped`: TAB, CR or LF before the path, or a C0 control or space at either
    /// end of the line, in a special-scheme reference or one of any scheme with an authority
    /// (`//`, as a browser reads it): browsers remove them (WHATWG URL
    /// §4.4 basic URL parser, first steps), so percent-encoding them would change the host a
    /// browser reads. `--trim` removes them instead (a repair). Also a C0 control or space
    /// that starts a `blob:` URL's inner URL, which `--trim` cannot remove (the blob URL
    /// keeps it; W3C File API §8.3).
    BrowserStripped = "browser-stripped", Error,
        "TAB/CR/LF before the path, or control/space at an end of the line or starting a \
         blob: inner URL: browsers strip it (WHATWG URL §4.4), encoding it would change the \
         host; see --trim",
        "WHATWG URL §4.4";
    /// `backslash-reference`: a reference starting with `\\`, `/\` or `\/` against a
    /// special base, or without a base (a crawl's relative link resolves against an `http(s)`
    /// page): RFC 3986 §4.2 reads a relative path, a browser (WHATWG URL §4.4, special
    /// relative slash state) a network-path reference to another host.
    BackslashReference = "backslash-reference", Error,
        "reference starts with \\\\, /\\ or \\/ (against a special base, or without a base): RFC 3986 reads \
         a relative path, a browser a network-path reference to another host",
        "RFC 3986 §4.2, WHATWG URL §4.4";
    /// `drive-letter-reference`: a reference whose path starts with a Windows drive letter
    /// (`/c:/x`, `c|/x`) against a `file` base, a `file` URL whose drive-letter segment
    /// RFC 3986 §5.2.4 would remove, a resolution that loses the drive letter the base's path
    /// starts with, one that gives a `file` URL with both a host and a drive letter, or a
    /// `file` URL whose authority is a drive letter (`file://C|/x`), or one whose path starts
    /// with a drive letter written with `|` (`file:///C|/x`, which browsers read as `C:`):
    /// browsers keep the drive letter through `..` and path-absolute references, and some
    /// drop the host before it (WHATWG URL §4.4 file state, RFC 8089 Appendix E.2); RFC 3986
    /// §5.2 does neither.
    DriveLetterReference = "drive-letter-reference", Error,
        "a Windows drive letter in a file URL that RFC 3986 §5.2 and browsers resolve \
         differently: browsers keep the drive letter through '..' and absolute paths, and \
         some drop the host before it (WHATWG URL §4.4 file state)",
        "RFC 3986 §5.2, RFC 8089 Appendix E.2";
    /// `opaque-base-reference`: a relative reference other than a fragment against a `blob:`
    /// base whose path is opaque (`blob:https://good.com/uuid`, W3C File API §8.3): browsers
    /// refuse it (WHATWG URL §4.4 no scheme state: "base has an opaque path and c is not
    /// U+0023 (#)"), while RFC 3986 §5.2 resolves it inside the inner URL, whose host it can
    /// then change (`../../evil.com/x` gives `blob:https://evil.com/x`, `//evil.com/x` gives
    /// `blob://evil.com/x`).
    OpaqueBaseReference = "opaque-base-reference", Error,
        "relative reference against a blob: base with an opaque path: browsers refuse it, \
         RFC 3986 §5.2 would resolve it inside the inner URL and can change its host",
        "RFC 3986 §5.2, WHATWG URL §4.4, W3C File API §8.3";
    /// `blob-origin-changed`: the conversion would change what a browser reads as the
    /// origin of a `blob:` URL's inner URL (W3C File API §8.3: its scheme, host and port):
    /// to-iri or normalize decoding `%68` in `blob:%68ttps://ex.com/` makes a scheme and a
    /// host appear where the input had none. The offset is the inner URL's start.
    BlobOriginChanged = "blob-origin-changed", Error,
        "the conversion would change the scheme or host a browser reads in the blob: URL's \
         inner URL (its origin)",
        "W3C File API §8.3";
    /// `idna2003-differs`: warning (error with `--strict`): IDNA2003 (RFC 3490, kept as
    /// `--host idna2003` asks) gives another host than UTS #46 non-transitional (what
    /// browsers use): deviation characters `ß ς`, joiners, characters unassigned in Unicode
    /// 3.2. An error always when Nameprep deletes a joiner UTS #46 refuses (`pay\u{200D}pal`).
    Idna2003Differs = "idna2003-differs", Warning,
        "IDNA2003 host differs from UTS #46 non-transitional (what browsers use)",
        "RFC 3490 §4, UTS #46 §4";
    /// `host-char-removed`: warning (error with `--strict`): host mapping deleted this
    /// character (UTS #46 §5 "ignored", RFC 3454 table B.1 in Nameprep), e.g. U+3164; the
    /// full message names it.
    HostCharRemoved(char) = "host-char-removed", Warning,
        "host mapping deleted a character (UTS #46 ignored / Nameprep B.1)",
        "UTS #46 §5, RFC 3454 B.1";
    /// `bad-ace`: `check`: an `xn--` label that is not valid Punycode or does not decode to a
    /// valid U-label (RFC 5891 §5.4, §4.4).
    BadAce = "bad-ace", Error,
        "xn-- label is not valid Punycode or not a valid U-label (RFC 5891 §5.4)",
        "RFC 5891 §5.4";
    /// `ambiguous-ipv4`: a reg-name that browsers read as an IPv4 address (WHATWG URL §3.5
    /// "ends in a number": last label all digits or `0x…`, e.g. `0x7f.1`, `127.1`): a warning
    /// in `check`; an error where conversion (IDNA, percent-decoding) would produce one.
    AmbiguousIpv4 = "ambiguous-ipv4", Warning,
        "host name that browsers read as an IPv4 address (WHATWG URL ends-in-a-number)",
        "WHATWG URL §3.5";
    /// `display-unsafe`: `check` warning: an `xn--` label that display safety keeps in ACE
    /// form (UTS #39 §5.2 mixed scripts, whole-script confusable, delimiter look-alike; a
    /// right-to-left label that a number after the host would be displayed in place of,
    /// RFC 3987 §4.4).
    DisplayUnsafe = "display-unsafe", Warning,
        "xn-- label unsafe to display in Unicode (UTS #39 §5.2, confusable, look-alike; right-to-left before a number, RFC 3987 §4.4)",
        "UTS #39 §5.2";
    /// `repaired-bracket`: `--repair brackets` percent-encoded a `[` or `]` outside an IP
    /// literal (RFC 3986 §3.2.2; RFC 3987 §3.1 allows it only as a preprocessing step). A
    /// warning; without the repair the line is the error `bad-bracket`.
    RepairedBracket = "repaired-bracket", Warning,
        "'[' or ']' outside an IP literal percent-encoded (--repair brackets)",
        "RFC 3987 §3.1, RFC 3986 §3.2.2";
    /// `repaired-percent`: `--repair percent` wrote a `%` not followed by two hex digits as
    /// `%25` (RFC 3986 §2.4: the `%` itself is encoded as `%25`). A warning; without the
    /// repair the line is the error `bad-percent`.
    RepairedPercent = "repaired-percent", Warning,
        "'%' not followed by two hex digits encoded as %25 (--repair percent)",
        "RFC 3987 §3.1, RFC 3986 §2.4";
    /// `repaired-hash`: `--repair hash` wrote a second `#` as `%23` (RFC 3986 §3.5: the
    /// fragment holds no `#`). A warning; without the repair the line is the error
    /// `extra-hash`.
    RepairedHash = "repaired-hash", Warning,
        "second '#' encoded as %23 (--repair hash)", "RFC 3987 §3.1, RFC 3986 §3.5";
}

impl ErrorKind {
    /// The stable code of this kind, as printed in reports.
    #[inline]
    pub fn code(self) -> &'static str {
        Self::ALL_CODES[self.index()]
    }

    /// A one-line English message (static: no allocation). The data-dependent reason, if any,
    /// is [`ErrorKind::detail`].
    #[inline]
    pub fn message(self) -> &'static str {
        Self::MESSAGES[self.index()]
    }

    /// The reason that completes [`ErrorKind::message`] for kinds that carry data (why IDNA
    /// failed), else `None`.
    #[inline]
    pub fn detail(self) -> Option<&'static str> {
        match self {
            ErrorKind::Idna(r) => Some(r.reason()),
            ErrorKind::BadBase(fault) => Some(fault.code.unwrap_or(BaseFault::NO_SCHEME_TEXT)),
            _ => None,
        }
    }

    /// The RFC section this kind enforces (empty for the limits of this tool, such as
    /// `line-too-long`).
    #[inline]
    pub fn rfc(self) -> &'static str {
        Self::RFCS[self.index()]
    }

    /// Error, warning or repair (when strict mode is off).
    #[inline]
    pub fn severity(self) -> Severity {
        Self::SEVERITIES[self.index()]
    }

    /// The severity of the kind whose code is `code` (for tables and reports that hold codes),
    /// or `None` for an unknown code.
    pub fn severity_of_code(code: &str) -> Option<Severity> {
        Self::slot_of_code(code).map(|i| Self::SEVERITIES[i])
    }

    /// The index in [`ErrorKind::ALL_CODES`] of `code`.
    fn slot_of_code(code: &str) -> Option<usize> {
        Self::ALL_CODES.iter().position(|&c| c == code)
    }

    /// True for the kinds that are warnings unless strict mode makes them errors.
    #[inline]
    pub fn is_warning_kind(self) -> bool {
        self.severity() == Severity::Warning
    }

    /// The full message: [`ErrorKind::message`], then `": "` and [`ErrorKind::detail`] when
    /// there is one, or the code point a `host-char-removed` names (the text of the error
    /// report).
    pub fn full_message(self) -> FullMessage {
        FullMessage(self)
    }
}

/// Why a record's base is refused ([`ErrorKind::BadBase`]): to-uri's error on it, by its code
/// and, for `idna`, IDNA's reason (a QA sweep: a right-to-left override in the base's host
/// read only "idna (IDNA failed)"); no code when the base has no valid scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseFault {
    /// The code of to-uri's error on the base; `None`: no valid scheme (RFC 3986 §5.1).
    pub code: Option<&'static str>,
    /// IDNA's reason, when the error was `idna`.
    pub idna: Option<IdnaReason>,
}

impl BaseFault {
    /// What the message says of a base with no valid scheme.
    const NO_SCHEME_TEXT: &'static str = "no valid scheme such as http:";

    /// The base has no valid scheme.
    pub const NO_SCHEME: BaseFault = BaseFault {
        code: None,
        idna: None,
    };

    /// to-uri's error `kind` on the base.
    pub fn of(kind: ErrorKind) -> BaseFault {
        BaseFault {
            code: Some(kind.code()),
            idna: match kind {
                ErrorKind::Idna(r) => Some(r),
                _ => None,
            },
        }
    }
}

impl fmt::Display for BaseFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(code) = self.code else {
            return f.write_str(Self::NO_SCHEME_TEXT);
        };
        let message = ErrorKind::slot_of_code(code).map(|i| ErrorKind::MESSAGES[i]);
        match (message, self.idna) {
            (Some(m), Some(r)) => write!(f, "{code} ({m}: {r})"),
            (Some(m), None) => write!(f, "{code} ({m})"),
            (None, _) => f.write_str(code),
        }
    }
}

/// [`ErrorKind::message`] and [`ErrorKind::detail`] joined by `": "`, written without
/// allocating (see [`ErrorKind::full_message`]).
#[derive(Clone, Copy, Debug)]
pub struct FullMessage(ErrorKind);

impl fmt::Display for FullMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.message())?;
        match self.0 {
            // The data-dependent reason (a UTS #46 failure names its rule and label).
            ErrorKind::Idna(r) => write!(f, ": {r}")?,
            // The character deleted from the host (issue 16).
            ErrorKind::HostCharRemoved(c) => write!(f, ": U+{:04X}", c as u32)?,
            // What is wrong with the base: no scheme, or to-uri's error, by code and message.
            ErrorKind::BadBase(fault) => write!(f, ": {fault}")?,
            _ => {}
        }
        Ok(())
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code(), self.full_message())
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

    /// The stable code of the kind (see [`ErrorKind::code`]).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The static message of the kind (see [`ErrorKind::message`]).
    pub fn message(&self) -> &'static str {
        self.kind.message()
    }

    /// The data-dependent reason, if any (see [`ErrorKind::detail`]).
    pub fn detail(&self) -> Option<&'static str> {
        self.kind.detail()
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "byte {}: {}", self.offset, self.kind)
    }
}

impl std::error::Error for LineError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of each kind (with each IDNA reason), in table order.
    fn every_kind() -> Vec<ErrorKind> {
        use ErrorKind::*;
        let reasons = [
            IdnaReason::RawTooLong,
            IdnaReason::RawLabelTooLong,
            IdnaReason::Idna2003(Idna2003Error::Prohibited),
            IdnaReason::Uts46(Uts46Failure {
                rule: Uts46Rule::Disallowed('\u{E000}'),
                label: Some(1),
            }),
            IdnaReason::PercentNotUtf8,
            IdnaReason::NotRegName,
            IdnaReason::AsciiHostName,
        ];
        let mut v = vec![
            InvalidUtf8,
            ControlChar,
            DisallowedAscii,
            BadPercent,
            ExtraHash,
            BadBracket,
            ExtraAt,
            BadScheme,
            BadIpLiteral,
            BadPort,
        ];
        v.extend(reasons.iter().map(|&r| Idna(r)));
        v.extend([
            LineTooLong,
            MissingField,
            BadBase(BaseFault::NO_SCHEME),
            BadBase(BaseFault::of(BackslashAuthority)),
            BadCharset,
            UnknownCharset,
            FieldDelimiter,
            BidiFormat,
            PrivateUse,
            NotUcschar,
            NonAscii,
            BidiMixed,
            BidiBoundary,
            CompatChar,
            LeadingCombining,
            JoinerContext,
            BackslashAuthority,
            MissingHost,
            BrowserStripped,
            BackslashReference,
            DriveLetterReference,
            OpaqueBaseReference,
            BlobOriginChanged,
            Idna2003Differs,
            HostCharRemoved('\u{3164}'),
            BadAce,
            AmbiguousIpv4,
            DisplayUnsafe,
            RepairedBracket,
            RepairedPercent,
            RepairedHash,
        ]);
        v
    }

    #[test]
    fn index_matches_code_and_table_order() {
        let kinds = every_kind();
        let mut seen = Vec::new();
        for k in &kinds {
            assert_eq!(ErrorKind::ALL_CODES[k.index()], k.code());
            assert_eq!(
                ErrorKind::ALL_CODES.iter().position(|&c| c == k.code()),
                Some(k.index())
            );
            if seen.last() != Some(&k.index()) {
                seen.push(k.index());
            }
        }
        assert_eq!(seen, (0..ErrorKind::ALL_CODES.len()).collect::<Vec<_>>());
    }

    #[test]
    fn codes_are_unique_and_messages_fit_a_tsv_field() {
        let mut codes = ErrorKind::ALL_CODES.to_vec();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ErrorKind::ALL_CODES.len());
        for k in every_kind() {
            let full = k.full_message().to_string();
            assert!(!k.message().is_empty(), "{k:?}");
            assert!(!full.contains(['\t', '\n', '\r']), "{k:?}: {full}");
        }
    }

    #[test]
    fn idna_message_carries_its_reason() {
        let k = ErrorKind::Idna(IdnaReason::Idna2003(Idna2003Error::Std3));
        assert_eq!(k.message(), "IDNA failed");
        assert_eq!(k.detail(), Some(Idna2003Error::Std3.reason()));
        assert_eq!(
            k.full_message().to_string(),
            format!("IDNA failed: {}", Idna2003Error::Std3.reason())
        );
        assert_eq!(ErrorKind::BadPort.detail(), None);
        assert_eq!(
            ErrorKind::HostCharRemoved('\u{3164}')
                .full_message()
                .to_string(),
            "host mapping deleted a character (UTS #46 ignored / Nameprep B.1): U+3164"
        );
        assert_eq!(
            ErrorKind::BadPort.full_message().to_string(),
            "bad port: not all digits, above 65535 (check), or in a file URL (which has none)"
        );
    }

    #[test]
    fn severities() {
        let warnings: Vec<_> = every_kind()
            .into_iter()
            .filter(|k| k.is_warning_kind())
            .map(ErrorKind::code)
            .collect();
        assert_eq!(
            warnings,
            [
                "bidi-format",
                "private-use",
                "not-ucschar",
                "compat-char",
                "leading-combining",
                "joiner-context",
                "idna2003-differs",
                "host-char-removed",
                "ambiguous-ipv4",
                "display-unsafe",
                "repaired-bracket",
                "repaired-percent",
                "repaired-hash"
            ]
        );
        assert_eq!(ErrorKind::DisallowedAscii.severity(), Severity::Repair);
        assert_eq!(ErrorKind::BadPercent.severity(), Severity::Error);
        assert_eq!(ErrorKind::BadPercent.rfc(), "RFC 3986 §2.1");
        for k in every_kind() {
            assert_eq!(ErrorKind::severity_of_code(k.code()), Some(k.severity()));
        }
        assert_eq!(ErrorKind::severity_of_code("no-such-code"), None);
    }
}
