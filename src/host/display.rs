//! Display safety of decoded text (issue 16, contract item 20): which Unicode labels of a host
//! and which percent-decoded characters `to-iri` and `normalize --idn unicode` may show, and
//! which must stay in `xn--` form or `%HH`.
//!
//! RFC 3987 §4.1 and §8 (security considerations: "spoofing") leave the policy to the
//! displaying application; this module follows what browsers do, anchored on UTS #39
//! (Unicode Security Mechanisms), Chromium's IDN spoof checks and Firefox's
//! "moderately restrictive" profile:
//!
//! * a label that mixes scripts beyond UTS #39 §5.2 *Moderately Restrictive*, or holds a
//!   character outside the UTS #39 §3.1 identifier profile, is not displayed
//!   ([`Unsafe::MixedScript`], [`Unsafe::NotAllowed`]);
//! * a label written in one non-Latin script whose UTS #39 §4 skeleton is all Latin
//!   (`аррӏе` → `apple`) is not displayed under a top-level domain that does not belong to
//!   that script ([`Unsafe::WholeScriptConfusable`]);
//! * a character whose UTS #39 §4 skeleton holds a URI delimiter `/ \ ? # @ : .` (U+2215 `∕`,
//!   U+29F8 `⧸`, U+FF3C `＼`, U+30CE `ノ` …) is not displayed ([`Unsafe::DelimiterLookalike`]),
//!   unless contract item 20 exempts it: a letter, mark or decimal digit inside a run of
//!   characters of its own script (Script_Extensions; Han, Hiragana and Katakana count as one)
//!   that holds a character which is not itself such a look-alike (`古ノルド語`, `٢٠٠٠`,
//!   `दुःख` are words; `goodノevil`, `a۰b`, `ノノ` are not).
//! * a label whose skeleton is all ASCII (`lınkedin` → `linkedin`) imitates an ASCII label
//!   and is not displayed ([`Unsafe::AsciiLookalike`]; a Turkish `ı` under `.tr`/`.az` is);
//! * the punctuation UTS #39 allows inside words (Identifier_Type Inclusion: `·`, `‐`, `・`
//!   …) is displayed only in its RFC 5892 Appendix A context (`col·legi`, `日本・東京`), not
//!   where it reads as a label dot or a hyphen (`www·paypal`: [`Unsafe::SeparatorLookalike`]);
//! * a host that to-iri percent-decodes gets the same label rules (`to_iri`'s
//!   `decode_host`).
//!
//! The Unicode data (confusables, identifier status, Script_Extensions, general categories)
//! comes from the `unicode-security`, `unicode-script` and `unicode-properties` crates (Unicode
//! 18.0 data in the versions locked today); the only table of this module is the policy list of
//! country-code TLDs that belong to a script ([`script_tlds`]).
//!
//! The functions are pure and allocation-light; they are meant to run on the slow path only
//! (text that holds non-ASCII characters about to be decoded).

use crate::grammar::charmemo::{CharMemo, PageMemo};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_script::{Script, ScriptExtension, UnicodeScript};
use unicode_security::{
    GeneralSecurityProfile, MixedScript, RestrictionLevel, RestrictionLevelDetection,
};

/// The delimiters a look-alike must not imitate: the gen-delims of RFC 3986 §2.2 that
/// structure an authority and a path (`/ ? # @ :`), the label separator `.` (RFC 3986
/// §3.2.2), and `\`, which the WHATWG URL Standard reads as `/` in special schemes.
pub const DELIMITERS: [char; 7] = ['/', '\\', '?', '#', '@', ':', '.'];

/// Why a label (or a character) is not displayed in Unicode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsafe {
    /// A character outside the UTS #39 §3.1 General Security Profile (identifier status not
    /// "Allowed"), e.g. a symbol or an invisible character.
    NotAllowed(char),
    /// The label mixes scripts beyond UTS #39 §5.2 Moderately Restrictive (e.g. Latin with
    /// Cyrillic, or Latin with Greek).
    MixedScript,
    /// The label is in this one non-Latin script, its skeleton is all Latin, and the TLD does
    /// not belong to that script (`аррӏе.com`).
    WholeScriptConfusable(Script),
    /// This character's UTS #39 skeleton holds one of [`DELIMITERS`] and contract item 20
    /// does not exempt it.
    DelimiterLookalike(char),
    /// A punctuation character the UTS #39 profile allows only for its words (Identifier_Type
    /// Inclusion: a middle dot, a hyphen, an apostrophe), outside the context RFC 5892
    /// Appendix A gives it, where it reads as a label dot or an ASCII hyphen
    /// (`www·paypal.com`, `pay‐pal.com`): see [`separator_context_ok`].
    SeparatorLookalike(char),
    /// The label is not ASCII but its UTS #39 skeleton is (`lınkedin` with a dotless i reads
    /// `linkedin`), or it holds a combining dot above on `i j l ı` (`li̇nkedin`): it imitates
    /// an ASCII label.
    AsciiLookalike,
    /// The label starts with a combining mark (UTS #46 §4.1 criterion 5 refuses such a
    /// label; a percent-decoded host can hold one): it would sit on the delimiter before it.
    LeadingMark(char),
    /// A combining mark of one script sits on a letter of another (`paypa\u{E47}l`, a Thai
    /// mark on a Latin `a`), or any mark on an ASCII digit or `-` (`1\u{E47}password`): the
    /// pair looks like the base alone (UTS #39 §5.4 suggests refusing a base and mark that
    /// look like the base alone), and Moderately Restrictive allows Latin with Thai, so the
    /// label would read `paypal` ([`mark_on_other_script`]).
    MarkOnOtherScript(char),
    /// A CJK character drawn as a plain stroke or shape (`丨 一 十 丁 〇 ㄒ`…) beside a
    /// character of another script, or the Katakana `ソ ゾ ン` between two non-Japanese
    /// characters, or the iteration mark `ヽ ヾ` not after Katakana: it reads as a Latin
    /// letter, a digit or punctuation there (`goog丨e`; [`browser_rules`]).
    CjkLookalike(char),
    /// The Hiragana `へ べ ぺ` right between Katakana, or the Katakana `ヘ ベ ペ` between
    /// Hiragana ([`shape_among_other_kana`]): they are drawn alike, so the label reads as another written in one
    /// kana script (`アべア` and `アベア`; [`browser_rules`]).
    KanaLookalike(char),
    /// Every character is an ASCII digit, `-`, or a letter or digit of another script drawn
    /// like an ASCII digit (`1ვ2` reads `132`; [`is_digit_lookalike`]).
    DigitLookalike,
    /// A letter browsers do not show in a host name at all: Latin Extended Additional
    /// U+1E00–U+1E9B (`ḷ`), the pinyin letters U+01CD–U+01DC, Latin Extended-D U+A720–U+A7FF,
    /// Greek Extended U+1F00–U+1FFF; or `ð`, `þ` outside `.is`/`.fo` and `ə` outside `.az`;
    /// or the dotless `ı` under a combining mark (`ı́` reads `í`) ([`browser_rules`]).
    LetterNotShown(char),
}

impl std::fmt::Display for Unsafe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Unsafe::NotAllowed(c) => write!(
                f,
                "U+{:04X} is outside the UTS #39 identifier profile",
                c as u32
            ),
            Unsafe::MixedScript => {
                f.write_str("mixes scripts beyond UTS #39 moderately restrictive")
            }
            Unsafe::WholeScriptConfusable(s) => write!(
                f,
                "all {} and confusable with a Latin label under a TLD of another script",
                s.full_name()
            ),
            Unsafe::DelimiterLookalike(c) => write!(
                f,
                "U+{:04X} looks like a URI delimiter (UTS #39 skeleton)",
                c as u32
            ),
            Unsafe::SeparatorLookalike(c) => write!(
                f,
                "U+{:04X} looks like a label dot or a hyphen where it stands (RFC 5892 Appendix A)",
                c as u32
            ),
            Unsafe::AsciiLookalike => {
                f.write_str("its UTS #39 skeleton is ASCII: it imitates an ASCII label")
            }
            Unsafe::LeadingMark(c) => write!(
                f,
                "starts with the combining mark U+{:04X} (UTS #46 §4.1 criterion 5)",
                c as u32
            ),
            Unsafe::MarkOnOtherScript(c) => write!(
                f,
                "the combining mark U+{:04X} sits on a letter of another script, a digit or '-'",
                c as u32
            ),
            Unsafe::CjkLookalike(c) => write!(
                f,
                "U+{:04X} is drawn as a stroke that reads as a Latin letter, a digit or punctuation beside characters of another script",
                c as u32
            ),
            Unsafe::KanaLookalike(c) => write!(
                f,
                "U+{:04X} is drawn as its Hiragana or Katakana twin: the label reads as one in a single kana script",
                c as u32
            ),
            Unsafe::DigitLookalike => {
                f.write_str("every character is a digit or drawn as one: it imitates a number")
            }
            Unsafe::LetterNotShown(c) => write!(
                f,
                "U+{:04X} is a letter browsers do not show in a host name (here)",
                c as u32
            ),
        }
    }
}

/// True when the UTS #39 §4 skeleton of `c` holds one of [`DELIMITERS`] (so also for the
/// ASCII delimiters themselves). to-iri asks it about every decoded character, and the
/// skeleton (an NFD, a confusables lookup, an NFD again) cost ~40 % of to-iri's instructions:
/// answered from [`SKELETON_DELIMITER`], for the BMP by a bitmap built at compile time (one
/// load, no warm-up per process: issue #11, tenth pass), above it by a binary search.
/// The test `skeleton_memo_matches_twin_on_every_code_point` compares it with
/// [`skeleton_has_delimiter_naive`] on every code point.
#[inline]
pub fn skeleton_has_delimiter(c: char) -> bool {
    let u = c as u32;
    if u < 0x10000 {
        return SKELETON_DELIMITER_BMP[(u >> 6) as usize] >> (u & 63) & 1 != 0;
    }
    let i = SKELETON_DELIMITER.partition_point(|&(_, hi)| hi < u);
    SKELETON_DELIMITER.get(i).is_some_and(|&(lo, _)| lo <= u)
}

/// The code points whose UTS #39 skeleton holds one of [`DELIMITERS`] (or that
/// [`DRAWN_AS_DELIMITER`] adds), as inclusive ranges
/// in ascending order: [`skeleton_has_delimiter_naive`] over every code point, for the
/// confusables data of unicode-security 0.1.3 (the test
/// `skeleton_memo_matches_twin_on_every_code_point` recomputes it; a new version of the
/// crate that changes it fails that test, and the table is regenerated from the twin).
static SKELETON_DELIMITER: [(u32, u32); 119] = [
    (0x0023, 0x0023),
    (0x0025, 0x0025),
    (0x002E, 0x002F),
    (0x003A, 0x003A),
    (0x003F, 0x0040),
    (0x005C, 0x005C),
    (0x00BC, 0x00BE),
    (0x0241, 0x0241),
    (0x0294, 0x0294),
    (0x02D0, 0x02D0),
    (0x02F8, 0x02F8),
    (0x0589, 0x0589),
    (0x05C3, 0x05C3),
    (0x0609, 0x060A),
    (0x0660, 0x0660),
    (0x066A, 0x066A),
    (0x06F0, 0x06F0),
    (0x0701, 0x0704),
    (0x0831, 0x0831),
    (0x0903, 0x0903),
    (0x097D, 0x097D),
    (0x0A83, 0x0A83),
    (0x1361, 0x1361),
    (0x1393, 0x1393),
    (0x13AE, 0x13AE),
    (0x16EC, 0x16EC),
    (0x1735, 0x1735),
    (0x1803, 0x1803),
    (0x1809, 0x1809),
    (0x2024, 0x2026),
    (0x2030, 0x2031),
    (0x2041, 0x2041),
    (0x2044, 0x2044),
    (0x2047, 0x2049),
    (0x2052, 0x2052),
    (0x205A, 0x205A),
    (0x205D, 0x205D),
    (0x2100, 0x2101),
    (0x2105, 0x2106),
    (0x2150, 0x215F),
    (0x2189, 0x2189),
    (0x2215, 0x2216),
    (0x2236, 0x2237),
    (0x2254, 0x2255),
    (0x22EE, 0x22EE),
    (0x244A, 0x244A),
    (0x2488, 0x249B),
    (0x2571, 0x2572),
    (0x27C8, 0x27C9),
    (0x27CB, 0x27CB),
    (0x27CD, 0x27CD),
    (0x2982, 0x2982),
    (0x29F4, 0x29F6),
    (0x29F8, 0x29F9),
    (0x2A74, 0x2A74),
    (0x2AF6, 0x2AF6),
    (0x2AFB, 0x2AFB),
    (0x2AFD, 0x2AFD),
    (0x2CC6, 0x2CC7),
    (0x2CF9, 0x2CF9),
    (0x2E2C, 0x2E2C),
    (0x2E4A, 0x2E4A),
    (0x2E5D, 0x2E5D),
    (0x2F02, 0x2F03),
    (0x3033, 0x3033),
    (0x30CE, 0x30CE),
    (0x31C0, 0x31C0),
    (0x31CF, 0x31CF),
    (0x31D2, 0x31D4),
    (0x33A7, 0x33A8),
    (0x33AE, 0x33AF),
    (0x33C2, 0x33C2),
    (0x33C6, 0x33C7),
    (0x33D8, 0x33D8),
    (0x33DE, 0x33DF),
    (0x4E36, 0x4E36),
    (0x4E3F, 0x4E3F),
    (0xA4F8, 0xA4F8),
    (0xA4FA, 0xA4FB),
    (0xA4FD, 0xA4FE),
    (0xA60E, 0xA60E),
    (0xA6EB, 0xA6EB),
    (0xA789, 0xA789),
    (0xABEC, 0xABEC),
    (0xFE13, 0xFE13),
    (0xFE16, 0xFE16),
    (0xFE19, 0xFE19),
    (0xFE30, 0xFE30),
    (0xFE52, 0xFE52),
    (0xFE55, 0xFE56),
    (0xFE5F, 0xFE5F),
    (0xFE68, 0xFE68),
    (0xFE6A, 0xFE6B),
    (0xFF03, 0xFF03),
    (0xFF05, 0xFF05),
    (0xFF0E, 0xFF0F),
    (0xFF1A, 0xFF1A),
    (0xFF1F, 0xFF20),
    (0xFF3C, 0xFF3C),
    (0xFF89, 0xFF89),
    (0x1015B, 0x1015B),
    (0x10781, 0x10781),
    (0x10A50, 0x10A50),
    (0x10AF5, 0x10AF5),
    (0x11002, 0x11002),
    (0x11082, 0x11082),
    (0x11182, 0x11182),
    (0x1123A, 0x1123A),
    (0x115BE, 0x115BE),
    (0x116AC, 0x116AC),
    (0x11838, 0x11838),
    (0x11DD9, 0x11DD9),
    (0x1D108, 0x1D108),
    (0x1D16D, 0x1D16D),
    (0x1D20F, 0x1D20F),
    (0x1D23A, 0x1D23B),
    (0x1ECAE, 0x1ECAE),
    (0x1F100, 0x1F100),
    (0x1F67C, 0x1F67D),
];

/// [`SKELETON_DELIMITER`] below U+10000 as a bitmap (one bit per code point, 8 KiB),
/// evaluated by the compiler. Also read by to-iri's decoder (`CLEAN_BMP`).
pub(crate) static SKELETON_DELIMITER_BMP: [u64; 1024] = bmp_bitmap(&SKELETON_DELIMITER);

/// The BMP part of a table of inclusive ranges, as a bitmap.
const fn bmp_bitmap(ranges: &[(u32, u32)]) -> [u64; 1024] {
    let mut m = [0u64; 1024];
    let mut i = 0;
    while i < ranges.len() {
        let (lo, hi) = ranges[i];
        let mut u = lo;
        while u <= hi && u < 0x10000 {
            m[(u >> 6) as usize] |= 1 << (u & 63);
            u += 1;
        }
        i += 1;
    }
    m
}

/// Characters drawn as a delimiter that confusables.txt (UTS #39 §4) does not map to one,
/// found by QA sweeps: U+1F67C VERY HEAVY SOLIDUS and U+1F67D VERY HEAVY REVERSE SOLIDUS,
/// U+2E4A DOTTED SOLIDUS, U+2E5D OBLIQUE HYPHEN, U+31C0 CJK STROKE T and U+31CF CJK STROKE N
/// (a slanted stroke the height of `/` or `\`: `google.com🙼login@evil.com` read as the host
/// `google.com`); U+2982 Z NOTATION TYPE COLON, U+2AF6 TRIPLE COLON OPERATOR, U+205D
/// TRICOLON and U+22EE VERTICAL ELLIPSIS (drawn as `:` or as U+FE19); and those
/// whose NFKC (UAX #15) holds a character the table already has, as their siblings do
/// (U+2150–U+2152 and U+2189, vulgar fractions with U+2044 `⁄` like U+2153–U+215F; U+33A8
/// `㎨` and U+33AF `㎯`, with U+2215 `∕` like U+33A7 `㎧`; U+FE19, NFKC `...`; U+10781, a
/// superscript of U+02D0 `ː`).
const DRAWN_AS_DELIMITER: [(u32, u32); 15] = [
    (0x205D, 0x205D),
    (0x2150, 0x2152),
    (0x2189, 0x2189),
    (0x22EE, 0x22EE),
    (0x2982, 0x2982),
    (0x2AF6, 0x2AF6),
    (0x2E4A, 0x2E4A),
    (0x2E5D, 0x2E5D),
    (0x31C0, 0x31C0),
    (0x31CF, 0x31CF),
    (0x33A8, 0x33A8),
    (0x33AF, 0x33AF),
    (0xFE19, 0xFE19),
    (0x10781, 0x10781),
    (0x1F67C, 0x1F67D),
];

/// The twin of [`skeleton_has_delimiter`]: the skeleton computed for `c`, or `c` in
/// [`DRAWN_AS_DELIMITER`].
pub fn skeleton_has_delimiter_naive(c: char) -> bool {
    let u = c as u32;
    if DRAWN_AS_DELIMITER
        .iter()
        .any(|&(lo, hi)| lo <= u && u <= hi)
    {
        return true;
    }
    let mut buf = [0u8; 4];
    let found =
        unicode_security::skeleton(c.encode_utf8(&mut buf)).any(|d| DELIMITERS.contains(&d));
    found
}

/// The Script_Extensions of `c` with Han, Hiragana and Katakana merged into one (contract
/// item 20, as Chromium treats Japanese text).
fn merged_scripts(c: char) -> ScriptExtension {
    let e = c.script_extension();
    if e.is_common() || e.is_inherited() {
        return e;
    }
    let cjk = ScriptExtension::from(Script::Han)
        .union(Script::Hiragana.into())
        .union(Script::Katakana.into());
    if e.intersection(cjk).is_empty() {
        e
    } else {
        e.union(cjk)
    }
}

/// True for the general categories contract item 20 may exempt: L, M, Nd.
fn is_word_char(c: char) -> bool {
    matches!(
        c.general_category_group(),
        GeneralCategoryGroup::Letter | GeneralCategoryGroup::Mark
    ) || c.general_category() == GeneralCategory::DecimalNumber
}

/// How far [`exempt`] looks for a witness on each side: longer than any word of a real
/// script, short enough that a hostile run of look-alikes stays linear.
const EXEMPT_WALK: usize = 64;

/// Contract item 20: is the look-alike at `chars[i]` exempt because it sits in a word of its
/// own script? Walks left and right over the run: a run ends at an ASCII character other
/// than a letter, digit or `-`, and at a character of another script; Common and Inherited
/// characters (ASCII digits, `-`, combining marks) continue it but are no witness. The look-
/// alike is exempt when the run holds a character of its script that is not a look-alike.
fn exempt(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if !is_word_char(c) {
        return false;
    }
    let own = merged_scripts(c);
    if own.is_common() || own.is_inherited() || own.is_empty() {
        return false;
    }
    let witness = |d: char| -> Option<bool> {
        // Some(true): a witness; Some(false): continue; None: the run ends.
        if d == c {
            return Some(false); // the same look-alike again: no witness, the run goes on
        }
        if d.is_ascii() && !(d.is_ascii_alphanumeric() || d == '-') {
            return None;
        }
        let e = d.script_extension();
        if e.is_common() || e.is_inherited() {
            return Some(false);
        }
        if merged_scripts(d).intersection(own).is_empty() {
            return None;
        }
        Some(!skeleton_has_delimiter(d))
    };
    // The walk is bounded ([`EXEMPT_WALK`] characters each side), so a long run of
    // look-alikes costs linear time (100,000 U+0660 took minutes walking the whole run for
    // each); a witness farther away does not exempt, which keeps more encoded, never less.
    for &d in chars[..i].iter().rev().take(EXEMPT_WALK) {
        match witness(d) {
            Some(true) => return true,
            Some(false) => {}
            None => break,
        }
    }
    for &d in chars[i + 1..].iter().take(EXEMPT_WALK) {
        match witness(d) {
            Some(true) => return true,
            Some(false) => {}
            None => break,
        }
    }
    false
}

/// The characters of `text` that must not be displayed decoded because they look like a
/// delimiter: byte offset and character, in order. `\` is always among them; other ASCII
/// characters never are (they are the delimiters themselves); non-ASCII characters whose skeleton holds a delimiter are, unless contract item 20 exempts them.
/// `text` is the decoded display text of one component (a label, a path, a query...): the
/// exemption looks at the neighbours of each character in it.
pub fn delimiter_lookalikes(text: &str) -> Vec<(usize, char)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    for (i, &c) in chars.iter().enumerate() {
        if c == '\\' || (!c.is_ascii() && skeleton_has_delimiter(c) && !exempt(&chars, i)) {
            out.push((at, c));
        }
        at += c.len_utf8();
    }
    out
}

/// For a percent-decoded character: true when the character at byte offset `at` of the
/// decoded component `text` must stay percent-encoded (`%E2%88%95` = U+2215 `∕`, `%5C` = `\`).
/// Every ASCII delimiter answers true as well (callers never decode those: RFC 3986 §2.2).
///
/// # Panics
/// If `at` is not the start of a character of `text`.
pub fn must_stay_encoded(text: &str, at: usize) -> bool {
    let c = text[at..].chars().next().expect("a character at `at`");
    if c == '\\' || !skeleton_has_delimiter(c) {
        return c == '\\';
    }
    let chars: Vec<char> = text.chars().collect();
    let i = text[..at].chars().count();
    !exempt(&chars, i)
}

/// The country-code TLDs (in ASCII or Unicode form, lower case) that belong to a script, for
/// the whole-script-confusable rule: a label all in that script is expected under them. A
/// TLD written in the script itself (e.g. `рф`) matches as well (see [`tld_matches`]).
/// Policy, after Chromium's IDN spoof checker; not Unicode data.
pub fn script_tlds(s: Script) -> &'static [&'static str] {
    match s {
        Script::Cyrillic => &[
            "bg", "by", "kg", "kz", "mk", "mn", "rs", "ru", "su", "tj", "ua", "uz", "pyc",
        ],
        Script::Greek => &["gr", "cy", "eu"],
        Script::Armenian => &["am"],
        Script::Georgian => &["ge"],
        Script::Hebrew => &["il"],
        Script::Thai => &["th"],
        Script::Ethiopic => &["et", "er"],
        Script::Bengali => &["bd", "in"],
        Script::Devanagari => &["in", "np"],
        Script::Gujarati
        | Script::Gurmukhi
        | Script::Kannada
        | Script::Malayalam
        | Script::Oriya
        | Script::Telugu => &["in"],
        Script::Tamil => &["in", "lk", "my", "sg"],
        Script::Myanmar => &["mm"],
        _ => &[],
    }
}

/// The delegated IDN TLDs (IANA root zone database) in the scripts whose letters have Latin
/// look-alikes: Cyrillic, Greek, Armenian, Georgian, Hebrew, Thai. Those among them that are
/// whole-script confusables themselves (a skeleton that reads as Latin,
/// [`skeleton_reads_latin`]: `рус` reads `pyc`, `рф` `pɸ`; thirteen, the test
/// `confusable_delegated_tlds_are_the_latin_reading_ones`) are still TLDs of their script.
/// Every other non-ASCII TLD of that kind is not a TLD but a label posing as one
/// (`www.аррӏе`, `login.раураӏ`), and excuses nothing ([`tld_matches`]).
#[rustfmt::skip]
pub const DELEGATED_IDN_TLDS: &[&str] = &[
    "бг", "бел", "дети", "ею", "католик", "ком", "мкд", "мон", "москва", "онлайн", "орг",
    "рус", "рф", "сайт", "срб", "укр", "қаз", "ελ", "ευ", "հայ", "გე", "קום", "ישראל",
    "ไทย", "คอม",
];

/// True when `tld` (a U-label or ASCII, any case) belongs to script `s`: written in it, or
/// listed by [`script_tlds`]. A TLD written in the script that is itself a whole-script
/// confusable belongs only when it is a delegated one ([`DELEGATED_IDN_TLDS`]):
/// otherwise the label posing as a TLD excused itself and the labels before it (a QA sweep:
/// `www.xn--80ak6aa92e` was shown `www.аррӏе`, `.apple` being a real TLD).
pub fn tld_matches(tld: &str, s: Script) -> bool {
    let lower = tld.to_lowercase();
    if script_tlds(s).contains(&lower.as_str()) {
        return true;
    }
    !tld.is_ascii()
        && tld.chars().all(|c| merged_scripts(c).contains_script(s))
        && (!(lower.chars().all(skeleton_reads_latin) || all_look_latin(&lower))
            || DELEGATED_IDN_TLDS.contains(&lower.as_str()))
}

/// The one script of a label written in a single non-Latin script, if it is one (UTS #39
/// §5.1 resolved script set, ignoring Common and Inherited characters).
fn single_script(label: &str) -> Option<Script> {
    let set = ScriptExtension::for_str(label);
    if set.is_empty() || set.is_common() || set.is_inherited() {
        return None;
    }
    set.iter()
        .find(|&s| s != Script::Latin && s != Script::Common && s != Script::Inherited)
}

/// Display safety of one U-label of a host (RFC 3987 §4.1, §8; UTS #39 §5.2, §4).
/// `tld` is the host's last label (in Unicode or ASCII form): it decides whether a
/// whole-script confusable is expected there. `Ok` means the label may be shown in Unicode;
/// an all-ASCII label is always `Ok`.
///
/// Answers exactly as [`check_label_naive`] (its twin, compared by tests on every label of
/// `../shared/datasets` and by a property test), with a fast path for the common label: one
/// pass over the characters with per-code-point facts from memos ([`identifier_allowed`],
/// [`skeleton_has_delimiter`], [`script_fact`], [`skeleton_is_latin`]). When every character
/// is an ASCII letter, digit or `-`, or a non-ASCII character in the UTS #39 §3.1 profile
/// whose skeleton holds no delimiter; when the non-ASCII ones are Common, Inherited or of one
/// and the same single script S (Script_Extensions exactly {S}); and when ASCII letters appear
/// only if S is Latin: then no character is outside the profile, none is a delimiter
/// look-alike, and the UTS #39 §5.1 resolved script set is {S} (Common and Inherited
/// characters do not restrict it), so the §5.2 restriction level is single-script (it passes)
/// and the one script of the label is S (none for Latin). Only the whole-script-confusable
/// rule is left, with the skeleton test answered per character ([`skeleton_is_latin`]).
/// Anything else goes to [`check_label_naive`].
pub fn check_label(label: &str, tld: &str) -> Result<(), Unsafe> {
    if label.is_ascii() {
        return Ok(());
    }
    leading_mark(label)?;
    match fast_label_script(label) {
        Some(Some(s)) if s != Script::Latin => {
            if (label.chars().all(skeleton_reads_latin) || all_look_latin(label))
                && !tld_matches(tld, s)
            {
                return Err(Unsafe::WholeScriptConfusable(s));
            }
            browser_rules(label, tld)
        }
        Some(_) => {
            if dot_above_on_ijl(label)
                || (label.chars().all(skeleton_is_latin) && !ascii_lookalike_expected(label, tld))
            {
                return Err(Unsafe::AsciiLookalike);
            }
            browser_rules(label, tld)
        }
        None => check_label_naive(label, tld),
    }
}

/// The punctuation characters of the UTS #39 §3.1 profile (Identifier_Type Inclusion, not
/// ASCII, not a joiner) that can pass for a label dot `.` or an ASCII hyphen `-` inside a
/// host label: U+00B7 `·`, U+058A `֊`, U+05F3 `׳`, U+05F4 `״`, U+0F0B `་`, U+2010 `‐`,
/// U+2019 `’`, U+2027 `‧`, U+30A0 `゠`, U+30FB `・` (UTS #46 keeps them valid; U+00B7,
/// U+05F3, U+05F4 and U+30FB are CONTEXTO in IDNA2008, RFC 5892 Appendix A.3, A.5–A.7, and
/// the others are DISALLOWED there). U+06FD and U+06FE (Sindhi signs) are symbols that look
/// like neither; U+02BB and U+02BC are letters (Hawaiian, Ukrainian) shaped like an
/// apostrophe, which no ASCII host holds. Also the two CJK characters drawn as a plain
/// horizontal stroke, U+4E00 `一` and U+30FC `ー` (a hyphen beside Latin letters:
/// `www一paypal`; Chromium's IDN spoof checker refuses `ー` there too).
#[inline]
pub fn is_separator_like(c: char) -> bool {
    matches!(
        c as u32,
        0x00B7
            | 0x058A
            | 0x05F3
            | 0x05F4
            | 0x0F0B
            | 0x2010
            | 0x2019
            | 0x2027
            | 0x30A0
            | 0x30FB
            | 0x30FC
            | 0x4E00
    )
}

/// Whether the separator-like character `chars[i]` ([`is_separator_like`]) is in the context
/// where its words use it, so that it is displayed in a host label:
///
/// * U+00B7 MIDDLE DOT between two `l` (either case; Catalan `l·l`; RFC 5892 Appendix A.3);
/// * U+05F3 GERESH and U+05F4 GERSHAYIM after a Hebrew letter (A.5, A.6);
/// * U+30FB KATAKANA MIDDLE DOT between two Han, Hiragana or Katakana characters (A.7 asks
///   for one such character in the label; the neighbours are asked here, as Chromium's IDN
///   spoof checker does, so that `www・paypal` is not shown);
/// * U+0F0B TIBETAN TSHEG after a Tibetan character, U+058A ARMENIAN HYPHEN between two
///   Armenian letters (their scripts' own punctuation);
/// * U+4E00 `一` and U+30FC `ー` when neither neighbour is an ASCII letter or digit (they
///   are words' characters, `一つ`, `ノルウェー`; beside Latin they read as `-`);
/// * never U+2010, U+2019, U+2027, U+30A0 (IDNA2008 DISALLOWED).
pub fn separator_context_ok(chars: &[char], i: usize) -> bool {
    let prev = i.checked_sub(1).map(|k| chars[k]);
    let next = chars.get(i + 1).copied();
    let of = |c: Option<char>, s: &[Script]| {
        c.is_some_and(|c| {
            let e = c.script_extension();
            s.iter().any(|&s| e.contains_script(s)) && !e.is_common() && !e.is_inherited()
        })
    };
    match chars[i] {
        // Either case: a percent-decoded host is not lower-cased (`COL·LEGI`).
        '\u{B7}' => matches!(prev, Some('l' | 'L')) && matches!(next, Some('l' | 'L')),
        '\u{5F3}' | '\u{5F4}' => of(prev, &[Script::Hebrew]),
        '\u{30FB}' => {
            let cjk = [Script::Han, Script::Hiragana, Script::Katakana];
            of(prev, &cjk) && of(next, &cjk) && prev != Some('\u{30FB}') && next != Some('\u{30FB}')
        }
        '\u{F0B}' => of(prev, &[Script::Tibetan]),
        '\u{58A}' => of(prev, &[Script::Armenian]) && of(next, &[Script::Armenian]),
        '\u{4E00}' | '\u{30FC}' => {
            let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            !latin(prev) && !latin(next)
        }
        _ => false,
    }
}

/// Whether a label whose skeleton is ASCII ([`Unsafe::AsciiLookalike`]) is expected under
/// `tld`: a Turkish or Azerbaijani word whose only non-ASCII character is the dotless `ı`
/// (U+0131; `kapı`) under `.tr` or `.az`, as a Cyrillic word under `.ru` ([`script_tlds`]).
/// Everywhere else it is kept in `xn--` form. The combining dot above of a lower-cased `İ`
/// (`i̇`, U+0069 U+0307) is not excused even there: `li̇nkedin.com.tr` reads as
/// `linkedin.com.tr`, and browsers refuse `i j l` + U+0307 under every TLD (a fourth QA
/// sweep; [`dot_above_on_ijl`]).
fn ascii_lookalike_expected(label: &str, tld: &str) -> bool {
    (tld.eq_ignore_ascii_case("tr") || tld.eq_ignore_ascii_case("az"))
        && label.chars().all(|c| c.is_ascii() || c == '\u{131}')
}

/// True when U+0307 COMBINING DOT ABOVE follows `i`, `j`, `l` or `ı` (either case) in
/// `label`, or it holds U+0130 `İ` (whose NFD is `I` U+0307): `i̇`, `ı̇` and `İ` look like
/// `i`/`I` (Chromium's IDN spoof checker refuses the same sequences), and the mark keeps the
/// UTS #39 skeleton from being ASCII (`li̇nkedin`, `GİTHUB` from IDNA2003's ToUnicode or a
/// decoded `%C4%B0`; found by a QA sweep).
fn dot_above_on_ijl(label: &str) -> bool {
    let b = label.as_bytes();
    // U+0307 is CC 87 in UTF-8; ı is C4 B1; İ is C4 B0.
    (0..b.len().saturating_sub(1)).any(|k| {
        (b[k] == 0xC4 && b[k + 1] == 0xB0)
            || (k >= 1
                && b[k] == 0xCC
                && b[k + 1] == 0x87
                && (matches!(b[k - 1], b'i' | b'j' | b'l' | b'I' | b'J' | b'L')
                    || (k >= 2 && b[k - 2..k] == [0xC4, 0xB1])))
    })
}

/// [`Unsafe::LeadingMark`] when `label` starts with a combining mark (general category M).
fn leading_mark(label: &str) -> Result<(), Unsafe> {
    match label.chars().next() {
        Some(c) if !c.is_ascii() && c.general_category_group() == GeneralCategoryGroup::Mark => {
            Err(Unsafe::LeadingMark(c))
        }
        _ => Ok(()),
    }
}

/// [`Unsafe::MarkOnOtherScript`]: a combining mark (general category M) whose
/// Script_Extensions name scripts (not Common or Inherited) none of which is a script of its
/// base, the last character before it that is not a mark, when that base has scripts of its
/// own (Han, Hiragana and Katakana count as one). Found by a QA sweep: about 300 marks of the
/// Thai, Lao, Myanmar, Tibetan, Khmer, Thaana and Brahmic blocks were shown inside `paypal`
/// (`xn--paypal-tfu.com`, `googl\u{93C}e`). Inherited marks (U+0300…, the accents of
/// decomposed Latin, Greek and Cyrillic text) and a mark on a digit or `-` are left to the
/// other rules. Any mark (Inherited too) on an ASCII digit or `-` is refused: no word puts
/// one there, and `1\u{E47}password` reads `1password` (found by a QA sweep: 317 marks of
/// 16 scripts were shown on a `1`). [`check_label`]'s fast path never holds a mark on a
/// letter of another script (its characters with a script all have one and the same); a
/// label with a non-ASCII character right after an ASCII digit or `-` goes to the twin
/// ([`fast_label_script`] declines it).
fn mark_on_other_script(label: &str) -> Result<(), Unsafe> {
    let mut base: Option<char> = None;
    for c in label.chars() {
        if c.is_ascii() || c.general_category_group() != GeneralCategoryGroup::Mark {
            base = Some(c);
            continue;
        }
        if matches!(base, Some('0'..='9' | '-')) {
            return Err(Unsafe::MarkOnOtherScript(c));
        }
        let mark = merged_scripts(c);
        if mark.is_common() || mark.is_inherited() || mark.is_empty() {
            continue;
        }
        if let Some(b) = base {
            let own = merged_scripts(b);
            if !(own.is_common() || own.is_inherited() || own.is_empty())
                && own.intersection(mark).is_empty()
            {
                return Err(Unsafe::MarkOnOtherScript(c));
            }
        }
    }
    Ok(())
}

/// [`skeleton_reads_latin`], or one of the letters browsers' lists add ([`looks_latin`]):
/// what [`foreign_letters_read_latin`] asks of the letters of another script in a Latin
/// label.
#[inline]
pub fn reads_as_latin(c: char) -> bool {
    skeleton_reads_latin(c) || looks_latin(c)
}

/// True when `label` holds a [`looks_latin`] letter and nothing but those (or their
/// capitals), ASCII digits, `-` and combining diacritical marks: the second reading of the whole-script-confusable rule, beside "every character's
/// skeleton reads as Latin". The two are not mixed (a label of `п` and letters only UTS #39
/// reads as Latin, such as the Bulgarian `безписемна` with `б` → `6`, `з` → `3`, `и` → `ᴎ`,
/// reads as neither: it stays shown, as in browsers).
pub fn all_look_latin(label: &str) -> bool {
    // A percent-decoded host keeps its capitals, which a browser lower-cases before it shows
    // the host (`file://Ореп.com/` is `xn--e1arec.com`; a second QA sweep found it shown).
    let lower = |c: char| {
        if c.is_ascii() {
            c
        } else {
            let mut l = c.to_lowercase();
            match (l.next(), l.next()) {
                (Some(x), None) => x,
                _ => c,
            }
        }
    };
    // A combining diacritical mark (U+0300–U+036F) on such a letter reads as the letter with
    // an accent, still Latin (`спп̦` reads `cnn` with a comma below; a second QA sweep).
    // One pass; a character is lower-cased only when it is not listed as it is (a table
    // lookup this rule asks of every letter of every non-Latin label on the fast path).
    let mut listed = false;
    for c in label.chars() {
        if looks_latin(c) {
            listed = true;
        } else if (c.is_ascii() && !c.is_ascii_alphabetic()) || matches!(c as u32, 0x0300..=0x036F)
        {
        } else if looks_latin(lower(c)) {
            listed = true;
        } else {
            return false;
        }
    }
    listed
}

/// Letters that read as Latin letters (or ASCII digits) in common fonts though their UTS #39
/// prototype is not Latin, so that [`skeleton_reads_latin`] misses them (Cyrillic `п ъ ь ю
/// г ѵ ѡ к ы`: `ореп` reads `open`, `спп` `cnn`; Greek `ω η ι κ ν ρ υ τ α ο`: `ωωω` reads
/// `www`; letters of Armenian, Georgian, Ethiopic, Hebrew, Thai, Myanmar and the Indic
/// scripts: `װ` reads `ll`, `บ` `u`, `๐` `o`), with the letters of those scripts that UTS #39
/// does read as Latin (`а е о р с у х`…). A label of nothing else ([`all_look_latin`]) is a
/// whole-script confusable ([`Unsafe::WholeScriptConfusable`]) unless its TLD belongs to
/// the script ([`script_tlds`]). The set is the one browsers keep in Punycode (Chromium's
/// IDN display policy, per script; a QA sweep found `ореп.com`, `ωωω.com`, `paypal.com.пр`
/// shown). Lower
/// case only: IDNA maps a host to lower case, and a percent-decoded host keeps capitals
/// that these letters' capitals do not resemble.
#[inline]
pub fn looks_latin(c: char) -> bool {
    let u = c as u32;
    // Every letter of the list is in the BMP.
    u < 0x10000 && LOOKS_LATIN_BMP[(u >> 6) as usize] >> (u & 63) & 1 != 0
}

/// [`looks_latin`]'s list, evaluated by the compiler into [`LOOKS_LATIN_BMP`] (the test
/// `browser_rule_bitmaps_match_their_lists` compares the two on every code point).
#[rustfmt::skip]
pub const fn looks_latin_listed(u: u32) -> bool {
    matches!(u,
        // Greek
        0x03B1 | 0x03B7 | 0x03B9 | 0x03BA | 0x03BD | 0x03BF | 0x03C1 | 0x03C4 | 0x03C5 | 0x03C9
        // Cyrillic
        | 0x0430 | 0x0433 | 0x0435 | 0x043A | 0x043E | 0x043F | 0x0440 | 0x0441 | 0x0443
        | 0x0445 | 0x044A | 0x044B | 0x044C | 0x044E | 0x0455 | 0x0456 | 0x0458 | 0x0461
        | 0x0475 | 0x04BB | 0x04BD | 0x04CF | 0x0501 | 0x050D | 0x0517 | 0x051B | 0x051D
        // Armenian
        | 0x0559 | 0x0561 | 0x0563 | 0x0566 | 0x0567 | 0x056C | 0x0570 | 0x0575 | 0x0578
        | 0x057D | 0x0582 | 0x0585
        // Hebrew
        | 0x05D3 | 0x05D5 | 0x05D7 | 0x05D9 | 0x05DF | 0x05E1 | 0x05F0 | 0x05F2 | 0x05F3 | 0xFB26
        // Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam
        | 0x093D | 0x0966 | 0x0971 | 0x09E6 | 0x09ED | 0x0A66 | 0x0A67 | 0x0A9F | 0x0AA1
        | 0x0AE6 | 0x0AE7 | 0x0B20 | 0x0B66 | 0x0B6E | 0x0B9F | 0x0BAA | 0x0BE6 | 0x0C66
        | 0x0C67 | 0x0CBD | 0x0CE6 | 0x0CE7 | 0x0D1F | 0x0D20 | 0x0D27 | 0x0D28 | 0x0D31
        | 0x0D66
        // Thai
        | 0x0E14 | 0x0E17 | 0x0E19 | 0x0E1A | 0x0E1B | 0x0E1E | 0x0E1F | 0x0E21 | 0x0E23
        | 0x0E25 | 0x0E2B | 0x0E40 | 0x0E41 | 0x0E50
        // Myanmar
        | 0x1001 | 0x1002 | 0x1004 | 0x1011 | 0x1015 | 0x101D | 0x1040 | 0x1042 | 0x1054
        | 0x105C | 0x1090 | 0x1091 | 0x1095 | 0x1096 | 0x1097
        // Georgian
        | 0x10D8 | 0x10DD | 0x10E7 | 0x10EB | 0x10EE | 0x10FD | 0x10FF
        // Ethiopic
        | 0x1200 | 0x1220 | 0x1230 | 0x1235 | 0x1260 | 0x1270 | 0x1290 | 0x12A8 | 0x12D0
        | 0x12D5 | 0x12D8 | 0x1320 | 0x1350 | 0xAB05)
}

/// Letters and digits of other scripts drawn like an ASCII digit (`з` 3, `ვ` 3, `२` 2,
/// `৪` 8, `θ` 0…): a label of nothing but ASCII digits, `-` and these reads as a number
/// ([`Unsafe::DigitLookalike`]; browsers keep such a label in Punycode; a QA sweep found
/// `1ვ2.com` shown, read `132.com`).
#[rustfmt::skip]
pub const fn is_digit_lookalike(u: u32) -> bool {
    matches!(u,
        0x03B8 | 0x0437 | 0x0499 | 0x04E1 | 0x0573 | 0x0577 | 0x0909 | 0x0968 | 0x0993
        | 0x09E8 | 0x09EA | 0x0A24 | 0x0A5C | 0x0A68 | 0x0A69 | 0x0A6A | 0x0A6B | 0x0AE8
        | 0x0AE9 | 0x0AED | 0x0B68 | 0x0B6B | 0x0C68 | 0x0C69 | 0x0CE9 | 0x0CED | 0x1012
        | 0x10D5 | 0x10D9 | 0x10DE | 0x3110 | 0x4E29)
}

/// The CJK characters drawn as a plain stroke or a simple shape that reads as a Latin
/// letter, an ASCII digit or punctuation beside Latin text: `一 ㄧ` (`-`), `丨` (`l`), `亅`
/// (`J`), `丁 丅 ㄒ` (`T`), `七 十` (`t`, `+`), `工` (`I`), `乛` (`7`), `乙` (`Z`), `乚`
/// (`L`), `〇` (`O`), `ㄚ`
/// (`Y`), `ㄟ ㄨ ㄩ ㄈ` (`\`, `X`, `U`, `C`), `乀 乁` (`\`), `讠` (`i`), `ㆲ ㆳ ㆺ`
/// ([`Unsafe::CjkLookalike`]).
#[rustfmt::skip]
const fn is_cjk_stroke(u: u32) -> bool {
    matches!(u,
        0x3007 | 0x3108 | 0x3112 | 0x311A | 0x311F | 0x3127 | 0x3128 | 0x3129 | 0x31B2
        | 0x31B3 | 0x31BA | 0x4E00 | 0x4E01 | 0x4E03 | 0x4E05 | 0x4E28 | 0x4E40 | 0x4E41
        | 0x4E59 | 0x4E5A | 0x4E5B | 0x4E85 | 0x5341 | 0x5DE5 | 0x8BA0)
}

/// The Katakana `ソ ゾ ン エ ト メ レ ロ` and the Han `口 囗 凵 冂 几 卩 匚 乂`, read as Latin
/// letters (`o o u n n p c x`) between two of them ([`browser_rules`]; `囗` from a QA sweep,
/// `g囗囗gle`).
const fn is_between_letters_lookalike(u: u32) -> bool {
    matches!(
        u,
        0x30BD
            | 0x30BE
            | 0x30F3
            | 0x30A8
            | 0x30C8
            | 0x30E1
            | 0x30EC
            | 0x30ED
            | 0x51F5
            | 0x53E3
            | 0x56D7
            | 0x5182
            | 0x51E0
            | 0x5369
            | 0x531A
            | 0x4E42
    )
}

/// The characters [`browser_rules`] looks at (beyond ASCII digits and `-`): the digit
/// look-alikes, the CJK strokes, `ソ ゾ ン エ ト ヽ ヾ`, the kana shapes `へ べ ぺ ヘ ベ ペ`, the
/// letters browsers hide or show under one TLD, the dotless `ı`, and the combining
/// diacritical marks. Every other character only ends a label of
/// digits. [`browser_rule_char`] answers it from a bitmap.
#[rustfmt::skip]
pub const fn browser_rule_listed(u: u32) -> bool {
    is_digit_lookalike(u)
        || is_cjk_stroke(u)
        || matches!(u,
            0x00D0 | 0x00DE | 0x00F0 | 0x00FE | 0x0131 | 0x018F | 0x0259 | 0x0300..=0x036F
            | 0x01CD..=0x01DC | 0x1E00..=0x1E9B | 0x1F00..=0x1FFF | 0xA720..=0xA7FF
            | 0x3078..=0x307A | 0x30D8..=0x30DA | 0x30FD | 0x30FE)
        || is_between_letters_lookalike(u)
}

/// [`browser_rule_listed`] by one bitmap load for the BMP.
#[inline]
fn browser_rule_char(u: u32) -> bool {
    if u < 0x10000 {
        return BROWSER_RULE_BMP[(u >> 6) as usize] >> (u & 63) & 1 != 0;
    }
    browser_rule_listed(u)
}

/// A BMP bitmap of a `const fn` list, evaluated by the compiler.
macro_rules! bmp_of {
    ($f:expr) => {{
        let mut m = [0u64; 1024];
        let mut u = 0u32;
        while u < 0x10000 {
            if $f(u) {
                m[(u >> 6) as usize] |= 1 << (u & 63);
            }
            u += 1;
        }
        m
    }};
}

static LOOKS_LATIN_BMP: [u64; 1024] = bmp_of!(looks_latin_listed);
static BROWSER_RULE_BMP: [u64; 1024] = bmp_of!(browser_rule_listed);

/// The Script_Extensions of `c` when it names scripts of its own (not Common, Inherited or
/// Unknown, which `unicode-script` reports as containing every script or none).
fn own_scripts(c: char) -> Option<ScriptExtension> {
    let e = c.script_extension();
    (!(e.is_common() || e.is_inherited() || e.is_empty())).then_some(e)
}

/// True when `c` belongs to Han, Hiragana, Katakana or Bopomofo (Script_Extensions), and
/// with `bopomofo` false to the first three (Japanese).
fn is_cjk(c: char, bopomofo: bool) -> bool {
    // Common and Inherited contain every script (`unicode-script`): a digit, `-`, a mark is
    // not CJK ([`own_scripts`]).
    own_scripts(c).is_some_and(|e| {
        e.contains_script(Script::Han)
            || e.contains_script(Script::Hiragana)
            || e.contains_script(Script::Katakana)
            || (bopomofo && e.contains_script(Script::Bopomofo))
    })
}

/// The display rules browsers apply to a host label beyond UTS #39's profile, restriction
/// levels and skeletons (issue 16; a QA sweep compared iribulk's display with Chromium's IDN
/// policy and found labels shown that read as another name):
///
/// * a CJK stroke ([`is_cjk_stroke`]) beside a letter that is not Han, Hiragana, Katakana
///   or Bopomofo (`goog丨e`, `丁witter`; ASCII digits and `-` count only in a label that
///   holds such a letter: `paypa1丨` is kept, `銀座1丁目` shown); the
///   Katakana `ソ ゾ ン エ ト メ レ ロ` and the Han `口 凵` with a non-Japanese letter on both
///   sides of them (`googleソcom`, `micrロsoft`, `g口口gle`); `ヽ ヾ`
///   not after Katakana ([`Unsafe::CjkLookalike`]). `ノ 丿 丶` are delimiter look-alikes,
///   ruled by contract item 20 ([`delimiter_lookalikes`]);
/// * a combining diacritical mark U+0300–U+0339 on a letter that is not Latin, Greek or
///   Cyrillic ([`Unsafe::MarkOnOtherScript`]: `googleソ̣com`);
/// * Hiragana `へ べ ぺ` right between two Katakana in a label with no other Hiragana, or
///   Katakana `ヘ ベ ペ` so among Hiragana ([`shape_among_other_kana`],
///   [`Unsafe::KanaLookalike`]);
/// * a label of ASCII digits, other ASCII characters that are not letters, and
///   [`is_digit_lookalike`] characters
///   ([`Unsafe::DigitLookalike`]);
/// * letters browsers never show in a host, and those they show under one TLD only
///   ([`Unsafe::LetterNotShown`]).
///
/// One pass over the label's characters, with a look at the neighbours of the few
/// characters concerned. `check_label` and its twin both end with it.
pub fn browser_rules(label: &str, tld: &str) -> Result<(), Unsafe> {
    if label.is_ascii() {
        return Ok(());
    }
    let mut prev: Option<char> = None;
    // The last character that is not a combining diacritical mark (U+0300–U+036F).
    let mut base: Option<char> = None;
    // The last character that is not one of [`is_between_letters_lookalike`].
    let mut before_run: Option<char> = None;
    let mut chars = label.chars().peekable();
    let mut digits_only = true;
    let mut lookalike_digit = false;
    // The first of the shapes the two kana share (へべぺ / ヘベペ) of each.
    let (mut hira_shape, mut kata_shape): (Option<char>, Option<char>) = (None, None);
    while let Some(c) = chars.next() {
        let u = c as u32;
        // ASCII digits and the other ASCII characters that are not letters (`-`, `_`, `'`)
        // leave a label of digits one.
        if c.is_ascii() && !c.is_ascii_alphabetic() {
            prev = Some(c);
            base = prev;
            before_run = prev;
            continue;
        }
        if u < 0x80 || !browser_rule_char(u) {
            digits_only = false;
            prev = Some(c);
            base = prev;
            before_run = prev;
            continue;
        }
        let next = chars.peek().copied();
        if is_digit_lookalike(u) {
            lookalike_digit = true;
        } else {
            digits_only = false;
        }
        // A neighbour that counts: a letter of another script; and an ASCII digit or `-`
        // when the label holds such a letter anywhere (`paypa1丨`, `pay-丨-pal`). In a label
        // of CJK, digits and `-` alone they do not count, as in browsers: `銀座1丁目`,
        // `第2工場`, `七-11` are words (a second QA sweep found them hidden, a third
        // `paypa1丨` shown once they never counted).
        let foreign = |bopomofo: bool| {
            label
                .chars()
                .any(|y| own_scripts(y).is_some_and(|_| !is_cjk(y, bopomofo)))
        };
        let other = |x: Option<char>, bopomofo: bool| {
            x.is_some_and(|x| {
                if x.is_ascii() && !x.is_ascii_alphabetic() {
                    return foreign(bopomofo);
                }
                own_scripts(x).is_some_and(|_| !is_cjk(x, bopomofo))
            })
        };
        if is_cjk_stroke(u) && (other(prev, true) || other(next, true)) {
            return Err(Unsafe::CjkLookalike(c));
        }
        match u {
            // `メ レ ロ 口 凵` read as `x v o o u` between two Latin letters (a QA sweep:
            // `micrロsoft`, `teメt`, `plaレer`, `g口口gle`); a run of these look-alikes is
            // judged by the characters around the run (`g口口gle`).
            _ if is_between_letters_lookalike(u) && other(before_run, false) && {
                let mut rest = chars.clone();
                let after = loop {
                    match rest.next() {
                        Some(x) if is_between_letters_lookalike(x as u32) => {}
                        x => break x,
                    }
                };
                other(after, false)
            } =>
            {
                return Err(Unsafe::CjkLookalike(c));
            }
            // A combining diacritical mark after a letter that is not Latin, Greek or
            // Cyrillic (its base: the last character before it that is not such a mark)
            // draws an accent no word of that script has, and hides the letter's shape from
            // the other rules (`googleソ̣com`; a second QA sweep; browsers refuse it too).
            0x0300..=0x0339
                if base.and_then(own_scripts).is_some_and(|e| {
                    !(e.contains_script(Script::Latin)
                        || e.contains_script(Script::Greek)
                        || e.contains_script(Script::Cyrillic))
                }) =>
            {
                return Err(Unsafe::MarkOnOtherScript(c));
            }
            0x30FD | 0x30FE
                if !prev
                    .and_then(own_scripts)
                    .is_some_and(|e| e.contains_script(Script::Katakana)) =>
            {
                return Err(Unsafe::CjkLookalike(c));
            }
            0x1E00..=0x1E9B | 0x01CD..=0x01DC | 0xA720..=0xA7FF | 0x1F00..=0x1FFF => {
                return Err(Unsafe::LetterNotShown(c));
            }
            0x00D0 | 0x00F0 | 0x00DE | 0x00FE
                if !(tld.eq_ignore_ascii_case("is") || tld.eq_ignore_ascii_case("fo")) =>
            {
                return Err(Unsafe::LetterNotShown(c));
            }
            0x018F | 0x0259 if !tld.eq_ignore_ascii_case("az") => {
                return Err(Unsafe::LetterNotShown(c));
            }
            0x0131 if next.is_some_and(|n| matches!(n as u32, 0x0300..=0x036F)) => {
                return Err(Unsafe::LetterNotShown(c));
            }
            0x3078..=0x307A => hira_shape = hira_shape.or(Some(c)),
            0x30D8..=0x30DA => kata_shape = kata_shape.or(Some(c)),
            _ => {}
        }
        prev = Some(c);
        if !matches!(u, 0x0300..=0x036F) {
            base = prev;
        }
        if !is_between_letters_lookalike(u) {
            before_run = prev;
        }
    }
    if digits_only && lookalike_digit {
        return Err(Unsafe::DigitLookalike);
    }
    for (shape, script) in [
        (hira_shape, Script::Katakana),
        (kata_shape, Script::Hiragana),
    ] {
        if shape.is_some() {
            if let Some(c) = shape_among_other_kana(label, script) {
                return Err(Unsafe::KanaLookalike(c));
            }
        }
    }
    Ok(())
}

/// The first kana shape of the other script (`へ べ ぺ` for `script` Katakana, `ヘ ベ ペ` for
/// Hiragana) with a character of `script` right before and after it, in a label that holds
/// no other character of the shape's own script: `アべア`, `アべマtv` read as `アベア`,
/// `アベマtv`. A Hiragana word beside it (`東京へアクセス`, `ハワイへ`: へ after Han, at the
/// end) is shown, as in browsers (a second QA sweep found them hidden by a rule on the
/// whole label's kana; a third found `アべア1` shown by one on the whole label).
fn shape_among_other_kana(label: &str, script: Script) -> Option<char> {
    let (shapes, own) = if script == Script::Katakana {
        (0x3078..=0x307A, Script::Hiragana)
    } else {
        (0x30D8..=0x30DA, Script::Katakana)
    };
    let of = |c: char, s: Script| own_scripts(c).is_some_and(|e| e.contains_script(s));
    let chars: Vec<char> = label.chars().collect();
    // Another character of the shape's own script only (not `ー`, shared by both): a word
    // of that script is written here.
    if chars
        .iter()
        .any(|&c| !shapes.contains(&(c as u32)) && of(c, own) && !of(c, script))
    {
        return None;
    }
    (1..chars.len().saturating_sub(1))
        .find(|&i| {
            shapes.contains(&(chars[i] as u32))
                && of(chars[i - 1], script)
                && of(chars[i + 1], script)
        })
        .map(|i| chars[i])
}

/// [`check_label`] (or its twin, `check`) of a label that percent-decoding produced, which
/// keeps the case and the normalization form it was written in (a host from IDNA's ToUnicode
/// is already mapped): also on the form a browser shows for it, UTS #46's mapping (lower
/// case, NFC...: the URL Standard's domain to Unicode), when that differs. `file://paypal%CC%A3.com/`
/// is the host `paypaḷ.com` and `file://%C6%91ACEBOOK.com/` is `ƒacebook.com`; the rules
/// judged `paypal` + U+0323 and `ƑACEBOOK` as written and showed them (a third QA sweep).
pub fn check_decoded_label(
    label: &str,
    tld: &str,
    check: fn(&str, &str) -> Result<(), Unsafe>,
) -> Result<(), Unsafe> {
    check(label, tld)?;
    // The URL Standard's "domain to Unicode" (UTS #46 with the browsers' lax options: no
    // hyphen, length or STD3 checks), which gives the mapped form even where iribulk's strict
    // IDNA refuses the label (`ƑACEBOOK-`, a fourth QA sweep).
    let (u, _) = idna::domain_to_unicode(label);
    if u == label {
        return Ok(());
    }
    let (t, _) = idna::domain_to_unicode(tld);
    u.split('.').try_for_each(|l| check(l, &t))
}

/// The TLD that [`check_label`] judges a host's labels under: its last non-empty label (at
/// `.`), or none (`""`) for a host of one label, which is its own TLD and would otherwise
/// be "a TLD written in its own script" (found by a QA sweep: `http://xn--80ak6aa92e/` was
/// shown `http://аррӏе/`, which reads as the host `apple`).
pub fn tld_of(host: &str) -> &str {
    let trimmed = host.trim_end_matches('.');
    match trimmed.bytes().rposition(|b| b == b'.') {
        Some(p) => &trimmed[p + 1..],
        None => "",
    }
}

/// True when [`check_label`] answers `label` on its fast path, without
/// [`check_label_naive`] (for the tests that prove the fast path is taken, and measurements).
pub fn takes_fast_path(label: &str) -> bool {
    label.is_ascii() || fast_label_script(label).is_some()
}

/// The fast-path precondition of [`check_label`]: `Some(script)` when every character of
/// `label` is an ASCII letter, digit or `-`, or an allowed non-ASCII character without a
/// delimiter in its skeleton, and all of them that are not Common or Inherited have the same
/// single script (`Some(None)`: none has one), and no combining mark follows an ASCII digit
/// or `-` ([`Unsafe::MarkOnOtherScript`]); `None` otherwise (the twin decides).
fn fast_label_script(label: &str) -> Option<Option<Script>> {
    let mut one: Option<Script> = None;
    // The last character was an ASCII digit or `-`.
    let mut after_digit = false;
    for c in label.chars() {
        let t = if c.is_ascii() {
            after_digit = c.is_ascii_digit() || c == '-';
            if after_digit {
                continue;
            }
            if !c.is_ascii_alphabetic() {
                return None;
            }
            Script::Latin
        } else {
            if !identifier_allowed(c) || skeleton_has_delimiter(c) || is_separator_like(c) {
                return None;
            }
            if std::mem::take(&mut after_digit)
                && c.general_category_group() == GeneralCategoryGroup::Mark
            {
                return None;
            }
            match script_fact(c) {
                ScriptFact::Neutral => continue,
                ScriptFact::Several => return None,
                ScriptFact::One(t) => t,
            }
        };
        match one {
            None => one = Some(t),
            Some(s) if s == t => {}
            Some(_) => return None,
        }
    }
    Some(one)
}

/// UTS #39 §3.1 identifier status "Allowed" of `c`, from a [`CharMemo`] of the
/// `unicode-security` table (a binary search per character).
#[inline]
fn identifier_allowed(c: char) -> bool {
    static MEMO: CharMemo = CharMemo::new(identifier_allowed_naive);
    MEMO.get(c)
}

/// The twin of [`identifier_allowed`].
fn identifier_allowed_naive(c: char) -> bool {
    c.identifier_allowed()
}

/// True when every character of the UTS #39 §4 skeleton of `c` alone is an ASCII letter,
/// digit or `-` (vacuously for a default-ignorable character, whose skeleton is empty).
/// A lookup in [`SKELETON_LATIN`] (issue #11, thirteenth pass: the [`CharMemo`] of
/// [`skeleton_is_latin_naive`] it replaces filled 128 code points per page on first use,
/// ~14 M instructions per process on the international URIs).
///
/// Per character is exact: the skeleton is `NFD(map(NFD(X)))` with the default-ignorable
/// characters removed after the first NFD (UTS #39 §4; so does `unicode_security::skeleton`).
/// NFD decomposes each character on its own and then only reorders combining marks
/// (UAX #15 §1.3: canonical ordering permutes, it adds or drops nothing); the removal and
/// `map` work per character. So the characters of `skeleton(label)` are, as a set, the union
/// of the characters of `skeleton(c)` over the characters `c` of the label, and "every
/// character of `skeleton(label)` is ASCII alphanumeric or `-`" holds iff it holds for every
/// `skeleton(c)`. The test `check_label_matches_twin_on_datasets` and the property test
/// `check_label_matches_twin_on_mixed_labels` compare it with the skeleton of whole labels.
#[inline]
pub fn skeleton_is_latin(c: char) -> bool {
    in_table(&SKELETON_LATIN_BMP, &SKELETON_LATIN, c)
}

/// `c` is in `ranges` (inclusive, ascending): the bitmap `bmp` of the ranges below U+10000
/// answers those ([`bmp_bitmap`]), a binary search the rest.
#[inline]
fn in_table(bmp: &[u64; 1024], ranges: &[(u32, u32)], c: char) -> bool {
    let u = c as u32;
    if u < 0x10000 {
        return bmp[(u >> 6) as usize] >> (u & 63) & 1 != 0;
    }
    let i = ranges.partition_point(|&(_, hi)| hi < u);
    ranges.get(i).is_some_and(|&(lo, _)| lo <= u)
}

/// The code points whose UTS #39 skeleton is made of ASCII letters, digits and `-` only (or
/// is empty), as inclusive ranges in ascending order: [`skeleton_is_latin_naive`] over every
/// code point, for the confusables data of unicode-security 0.1.3 (the test
/// `label_fact_memos_match_twins_on_every_code_point` compares [`skeleton_is_latin`] with it
/// on every code point; a new Unicode version means regenerating it from the twin).
#[rustfmt::skip]
static SKELETON_LATIN: [(u32, u32); 697] = [
    (0x002D, 0x002D), (0x0030, 0x0039), (0x0041, 0x005A), (0x0061, 0x007A), (0x007C, 0x007C), (0x00A1, 0x00A1),
    (0x00AD, 0x00AD), (0x00C6, 0x00C6), (0x00D7, 0x00D7), (0x00E6, 0x00E6), (0x00FE, 0x00FE), (0x0131, 0x0133),
    (0x0152, 0x0153), (0x017F, 0x017F), (0x0184, 0x0184), (0x018D, 0x018D), (0x0192, 0x0192), (0x0196, 0x0196),
    (0x01A6, 0x01A7), (0x01B7, 0x01B7), (0x01BC, 0x01BD), (0x01BF, 0x01C1), (0x01C7, 0x01CC), (0x01F1, 0x01F3),
    (0x021C, 0x021C), (0x0222, 0x0223), (0x0237, 0x0237), (0x024C, 0x024C), (0x0251, 0x0251), (0x0261, 0x0261),
    (0x0263, 0x0263), (0x0269, 0x026A), (0x026F, 0x026F), (0x0284, 0x0284), (0x028B, 0x028B), (0x028F, 0x028F),
    (0x02A3, 0x02A3), (0x02A6, 0x02A6), (0x02AA, 0x02AB), (0x02D7, 0x02D7), (0x034F, 0x034F), (0x037F, 0x037F),
    (0x0391, 0x0392), (0x0395, 0x0397), (0x0399, 0x039A), (0x039C, 0x039D), (0x039F, 0x039F), (0x03A1, 0x03A1),
    (0x03A4, 0x03A5), (0x03A7, 0x03A7), (0x03B1, 0x03B1), (0x03B3, 0x03B3), (0x03B9, 0x03B9), (0x03BD, 0x03BD),
    (0x03BF, 0x03BF), (0x03C1, 0x03C1), (0x03C3, 0x03C3), (0x03C5, 0x03C5), (0x03D2, 0x03D2), (0x03DC, 0x03DC),
    (0x03E8, 0x03E8), (0x03EC, 0x03ED), (0x03F1, 0x03F3), (0x03F8, 0x03FA), (0x0405, 0x0406), (0x0408, 0x0408),
    (0x0410, 0x0410), (0x0412, 0x0412), (0x0415, 0x0415), (0x0417, 0x0417), (0x041A, 0x041A), (0x041C, 0x041E),
    (0x0420, 0x0423), (0x0425, 0x0425), (0x042B, 0x042C), (0x042E, 0x042E), (0x0430, 0x0431), (0x0433, 0x0433),
    (0x0435, 0x0435), (0x043E, 0x043E), (0x0440, 0x0441), (0x0443, 0x0443), (0x0445, 0x0445), (0x0448, 0x0448),
    (0x0455, 0x0456), (0x0458, 0x0458), (0x0461, 0x0461), (0x0474, 0x0475), (0x0478, 0x0479), (0x04AE, 0x04AF),
    (0x04BA, 0x04BB), (0x04BD, 0x04BD), (0x04C0, 0x04C0), (0x04CF, 0x04CF), (0x04D4, 0x04D5), (0x04E0, 0x04E0),
    (0x0501, 0x0501), (0x050C, 0x050C), (0x051A, 0x051D), (0x0545, 0x0545), (0x054D, 0x054D), (0x054F, 0x054F),
    (0x0555, 0x0555), (0x0560, 0x0561), (0x0563, 0x0563), (0x0566, 0x0566), (0x0570, 0x0570), (0x0575, 0x0575),
    (0x0578, 0x0578), (0x057C, 0x057D), (0x0581, 0x0582), (0x0584, 0x0585), (0x05C0, 0x05C0), (0x05D5, 0x05D5),
    (0x05D8, 0x05D8), (0x05DF, 0x05DF), (0x05E1, 0x05E1), (0x05F0, 0x05F0), (0x061C, 0x061C), (0x0627, 0x0627),
    (0x0647, 0x0647), (0x0661, 0x0661), (0x0665, 0x0665), (0x0667, 0x0667), (0x06BE, 0x06BE), (0x06C1, 0x06C1),
    (0x06D4, 0x06D5), (0x06F1, 0x06F1), (0x06F5, 0x06F5), (0x06F7, 0x06F7), (0x07C0, 0x07C0), (0x07CA, 0x07CC),
    (0x07D3, 0x07D3), (0x07D5, 0x07D5), (0x07E0, 0x07E0), (0x0840, 0x0840), (0x0964, 0x0966), (0x0969, 0x0969),
    (0x09E6, 0x09E6), (0x09EA, 0x09EA), (0x09ED, 0x09ED), (0x0A66, 0x0A67), (0x0A6A, 0x0A6A), (0x0AE6, 0x0AE6),
    (0x0AE9, 0x0AE9), (0x0B03, 0x0B03), (0x0B20, 0x0B20), (0x0B66, 0x0B66), (0x0B68, 0x0B68), (0x0BE6, 0x0BE6),
    (0x0C02, 0x0C02), (0x0C66, 0x0C66), (0x0C82, 0x0C82), (0x0CE6, 0x0CE6), (0x0D02, 0x0D02), (0x0D1F, 0x0D20),
    (0x0D66, 0x0D66), (0x0D6D, 0x0D6D), (0x0D82, 0x0D82), (0x0E50, 0x0E50), (0x0ED0, 0x0ED0), (0x1004, 0x1004),
    (0x101D, 0x101D), (0x1040, 0x1040), (0x104A, 0x104B), (0x105A, 0x105A), (0x10B9, 0x10B9), (0x10BD, 0x10BD),
    (0x10C7, 0x10C7), (0x10CD, 0x10CD), (0x10E7, 0x10E7), (0x10FD, 0x10FD), (0x10FF, 0x10FF), (0x110B, 0x110B),
    (0x1147, 0x1147), (0x115F, 0x1160), (0x11BC, 0x11BC), (0x11EE, 0x11EE), (0x1200, 0x1200), (0x12D0, 0x12D0),
    (0x13A0, 0x13A2), (0x13A5, 0x13A5), (0x13A9, 0x13AC), (0x13B3, 0x13B3), (0x13B7, 0x13B7), (0x13BB, 0x13BB),
    (0x13BD, 0x13BD), (0x13C0, 0x13C0), (0x13C2, 0x13C3), (0x13CE, 0x13CF), (0x13D2, 0x13D2), (0x13D4, 0x13D5),
    (0x13D9, 0x13DA), (0x13DE, 0x13DF), (0x13E2, 0x13E2), (0x13E6, 0x13E7), (0x13EE, 0x13EE), (0x13F3, 0x13F4),
    (0x142F, 0x142F), (0x144C, 0x144C), (0x146D, 0x146D), (0x146F, 0x146F), (0x1472, 0x1472), (0x148D, 0x148D),
    (0x14AA, 0x14AA), (0x14BF, 0x14BF), (0x1541, 0x1541), (0x157C, 0x157D), (0x1587, 0x1587), (0x15AF, 0x15AF),
    (0x15B4, 0x15B4), (0x15C5, 0x15C5), (0x15DE, 0x15DE), (0x15EA, 0x15EA), (0x15F0, 0x15F0), (0x15F7, 0x15F7),
    (0x1616, 0x1616), (0x166D, 0x166E), (0x16B7, 0x16B7), (0x16C1, 0x16C1), (0x16D0, 0x16D0), (0x16D5, 0x16D6),
    (0x1702, 0x1702), (0x172A, 0x172A), (0x174D, 0x174D), (0x1763, 0x1763), (0x17B4, 0x17B5), (0x17E0, 0x17E0),
    (0x180B, 0x180F), (0x1A45, 0x1A45), (0x1A80, 0x1A80), (0x1A90, 0x1A90), (0x1BEA, 0x1BEA), (0x1BEC, 0x1BEC),
    (0x1BF3, 0x1BF3), (0x1C82, 0x1C84), (0x1C95, 0x1C95), (0x1CB7, 0x1CB7), (0x1CBD, 0x1CBD), (0x1CBF, 0x1CBF),
    (0x1CF5, 0x1CF5), (0x1D04, 0x1D04), (0x1D0F, 0x1D0F), (0x1D11, 0x1D11), (0x1D1C, 0x1D1C), (0x1D20, 0x1D22),
    (0x1D26, 0x1D26), (0x1D6B, 0x1D6B), (0x1D83, 0x1D83), (0x1D8C, 0x1D8C), (0x1E9D, 0x1E9D), (0x1EFA, 0x1EFA),
    (0x1EFF, 0x1EFF), (0x1FBE, 0x1FBE), (0x200B, 0x2013), (0x2016, 0x2016), (0x202A, 0x202E), (0x2043, 0x2043),
    (0x2060, 0x206F), (0x20A8, 0x20A8), (0x20B6, 0x20B6), (0x2102, 0x2102), (0x210A, 0x210E), (0x2110, 0x2113),
    (0x2115, 0x2116), (0x2119, 0x211D), (0x2121, 0x2121), (0x2124, 0x2124), (0x2128, 0x2128), (0x212A, 0x212A),
    (0x212C, 0x2131), (0x2133, 0x2134), (0x2139, 0x2139), (0x213B, 0x213B), (0x213D, 0x213D), (0x2145, 0x2149),
    (0x2160, 0x217F), (0x21BF, 0x21BF), (0x2212, 0x2212), (0x221E, 0x221E), (0x2223, 0x2223), (0x2225, 0x2225),
    (0x2228, 0x2228), (0x222A, 0x222A), (0x22A4, 0x22A4), (0x22C1, 0x22C1), (0x22C3, 0x22C3), (0x22FF, 0x22FF),
    (0x2373, 0x2374), (0x237A, 0x237A), (0x23FD, 0x23FD), (0x2502, 0x2503), (0x2573, 0x2573), (0x2796, 0x2796),
    (0x27D9, 0x27D9), (0x292B, 0x292C), (0x29E2, 0x29E2), (0x2A2F, 0x2A2F), (0x2C6B, 0x2C6C), (0x2C82, 0x2C82),
    (0x2C85, 0x2C85), (0x2C8C, 0x2C8E), (0x2C92, 0x2C94), (0x2C98, 0x2C98), (0x2C9A, 0x2C9A), (0x2C9C, 0x2C9C),
    (0x2C9E, 0x2C9F), (0x2CA2, 0x2CA6), (0x2CA8, 0x2CA9), (0x2CAC, 0x2CAC), (0x2CBA, 0x2CBB), (0x2CBD, 0x2CBD),
    (0x2CC4, 0x2CC4), (0x2CCA, 0x2CCC), (0x2CCE, 0x2CD0), (0x2CD2, 0x2CD3), (0x2CDC, 0x2CDC), (0x2D2D, 0x2D2D),
    (0x2D38, 0x2D39), (0x2D4A, 0x2D4A), (0x2D4F, 0x2D4F), (0x2D54, 0x2D55), (0x2D5D, 0x2D5D), (0x3007, 0x3007),
    (0x3112, 0x3112), (0x311A, 0x311A), (0x3147, 0x3147), (0x3164, 0x3164), (0x3180, 0x3180), (0x3250, 0x3250),
    (0x32CC, 0x32CF), (0x3371, 0x3377), (0x337A, 0x337A), (0x3380, 0x3381), (0x3383, 0x338B), (0x338E, 0x3394),
    (0x3396, 0x339A), (0x339C, 0x339E), (0x33A9, 0x33AD), (0x33B0, 0x33B1), (0x33B3, 0x33B5), (0x33B7, 0x33BB),
    (0x33BD, 0x33BF), (0x33C3, 0x33C5), (0x33C8, 0x33D7), (0x33D9, 0x33DD), (0x33FF, 0x33FF), (0x4E05, 0x4E05),
    (0x4E2B, 0x4E2B), (0xA4D0, 0xA4D4), (0xA4D6, 0xA4D7), (0xA4D9, 0xA4DA), (0xA4DC, 0xA4DD), (0xA4DF, 0xA4E3),
    (0xA4E6, 0xA4E7), (0xA4EA, 0xA4EC), (0xA4EE, 0xA4EE), (0xA4F0, 0xA4F0), (0xA4F2, 0xA4F4), (0xA50B, 0xA50B),
    (0xA516, 0xA516), (0xA543, 0xA543), (0xA557, 0xA557), (0xA56F, 0xA56F), (0xA576, 0xA576), (0xA589, 0xA589),
    (0xA5CB, 0xA5CB), (0xA644, 0xA644), (0xA647, 0xA647), (0xA698, 0xA699), (0xA6C9, 0xA6C9), (0xA6DF, 0xA6DF),
    (0xA6EF, 0xA6EF), (0xA728, 0xA728), (0xA731, 0xA73D), (0xA74E, 0xA74F), (0xA75A, 0xA75A), (0xA76A, 0xA76A),
    (0xA76E, 0xA76F), (0xA777, 0xA777), (0xA781, 0xA781), (0xA798, 0xA799), (0xA79F, 0xA79F), (0xA7AB, 0xA7AB),
    (0xA7AE, 0xA7AE), (0xA7B2, 0xA7B4), (0xA7FA, 0xA7FA), (0xA7FE, 0xA7FE), (0xA830, 0xA830), (0xA8CE, 0xA8CF),
    (0xAA5D, 0xAA5D), (0xAA7D, 0xAA7D), (0xAB32, 0xAB32), (0xAB35, 0xAB35), (0xAB3D, 0xAB3D), (0xAB43, 0xAB43),
    (0xAB47, 0xAB48), (0xAB4E, 0xAB4E), (0xAB52, 0xAB52), (0xAB5A, 0xAB5A), (0xAB63, 0xAB64), (0xAB75, 0xAB75),
    (0xAB81, 0xAB81), (0xAB83, 0xAB83), (0xAB93, 0xAB93), (0xAB9E, 0xAB9E), (0xABA4, 0xABA4), (0xABA9, 0xABAA),
    (0xABAF, 0xABAF), (0xABBE, 0xABBE), (0xFB00, 0xFB06), (0xFBA6, 0xFBAD), (0xFE00, 0xFE0F), (0xFE31, 0xFE31),
    (0xFE58, 0xFE58), (0xFE63, 0xFE63), (0xFE8D, 0xFE8E), (0xFEE9, 0xFEEC), (0xFEFF, 0xFEFF), (0xFF10, 0xFF19),
    (0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0xFF5C, 0xFF5C), (0xFFA0, 0xFFA0), (0xFFB7, 0xFFB7), (0xFFE8, 0xFFE8),
    (0xFFF0, 0xFFF8), (0x1017E, 0x1017E), (0x1018B, 0x1018B), (0x10191, 0x10191), (0x10282, 0x10282), (0x10286, 0x10287),
    (0x1028A, 0x1028A), (0x10290, 0x10290), (0x10292, 0x10292), (0x10295, 0x10297), (0x102A0, 0x102A2), (0x102A5, 0x102A5),
    (0x102AB, 0x102AB), (0x102B0, 0x102B2), (0x102B4, 0x102B4), (0x102CF, 0x102CF), (0x102F5, 0x102F5), (0x10301, 0x10302),
    (0x10309, 0x10309), (0x1030F, 0x1030F), (0x10311, 0x10311), (0x10315, 0x10315), (0x10317, 0x10317), (0x1031A, 0x1031A),
    (0x1031C, 0x1031C), (0x10320, 0x10320), (0x10322, 0x10322), (0x10404, 0x10404), (0x10415, 0x10415), (0x1041B, 0x1041B),
    (0x10420, 0x10420), (0x1042C, 0x1042C), (0x1043D, 0x1043D), (0x10448, 0x10448), (0x104B4, 0x104B4), (0x104C2, 0x104C2),
    (0x104CE, 0x104CE), (0x104D2, 0x104D2), (0x104EA, 0x104EA), (0x104F6, 0x104F6), (0x10507, 0x10507), (0x1050E, 0x1050E),
    (0x10513, 0x10513), (0x10516, 0x10516), (0x10518, 0x10518), (0x1051B, 0x1051B), (0x1051D, 0x1051D), (0x10525, 0x10527),
    (0x10926, 0x10926), (0x1092C, 0x1092C), (0x10C13, 0x10C13), (0x10C17, 0x10C17), (0x10C1F, 0x10C21), (0x10C3E, 0x10C3E),
    (0x10C82, 0x10C82), (0x10CA5, 0x10CA5), (0x10CC2, 0x10CC2), (0x10CFA, 0x10CFA), (0x10CFC, 0x10CFC), (0x10D07, 0x10D07),
    (0x11047, 0x11048), (0x110C0, 0x110C1), (0x11124, 0x11124), (0x11141, 0x11142), (0x111C5, 0x111C6), (0x11302, 0x11302),
    (0x113D4, 0x113D5), (0x11445, 0x11445), (0x1144B, 0x1144C), (0x114D0, 0x114D0), (0x115C5, 0x115C5), (0x11641, 0x11642),
    (0x11700, 0x11700), (0x11706, 0x11706), (0x1170A, 0x1170A), (0x1170E, 0x1170F), (0x118A0, 0x118A0), (0x118A2, 0x118A4),
    (0x118A6, 0x118A6), (0x118A9, 0x118A9), (0x118AC, 0x118AC), (0x118AE, 0x118AF), (0x118B2, 0x118B2), (0x118B5, 0x118B5),
    (0x118B8, 0x118B8), (0x118BB, 0x118BC), (0x118C0, 0x118C4), (0x118C6, 0x118C6), (0x118C8, 0x118C8), (0x118CA, 0x118CA),
    (0x118CC, 0x118CC), (0x118D5, 0x118D8), (0x118DC, 0x118DC), (0x118E0, 0x118E0), (0x118E3, 0x118E3), (0x118E5, 0x118E6),
    (0x118E9, 0x118E9), (0x118EC, 0x118EC), (0x118EF, 0x118EF), (0x118F2, 0x118F2), (0x11ABC, 0x11ABC), (0x11ABE, 0x11ABE),
    (0x11C41, 0x11C42), (0x11DDA, 0x11DDA), (0x11DE0, 0x11DE1), (0x169C1, 0x169C1), (0x169FE, 0x169FE), (0x16A19, 0x16A19),
    (0x16AD6, 0x16AD6), (0x16AE9, 0x16AE9), (0x16D63, 0x16D63), (0x16E82, 0x16E82), (0x16E8A, 0x16E8A), (0x16EAA, 0x16EAA),
    (0x16EB6, 0x16EB6), (0x16F08, 0x16F08), (0x16F0A, 0x16F0A), (0x16F16, 0x16F16), (0x16F28, 0x16F28), (0x16F35, 0x16F35),
    (0x16F3A, 0x16F3B), (0x16F40, 0x16F40), (0x16F42, 0x16F43), (0x1BCA0, 0x1BCA3), (0x1CCD6, 0x1CCF9), (0x1CEFC, 0x1CEFC),
    (0x1D100, 0x1D100), (0x1D134, 0x1D134), (0x1D173, 0x1D17A), (0x1D1FE, 0x1D1FE), (0x1D206, 0x1D207), (0x1D20C, 0x1D20D),
    (0x1D212, 0x1D213), (0x1D216, 0x1D216), (0x1D22A, 0x1D22A), (0x1D262, 0x1D262), (0x1D373, 0x1D373), (0x1D377, 0x1D377),
    (0x1D400, 0x1D454), (0x1D456, 0x1D49C), (0x1D49E, 0x1D49F), (0x1D4A2, 0x1D4A2), (0x1D4A5, 0x1D4A6), (0x1D4A9, 0x1D4AC),
    (0x1D4AE, 0x1D4B9), (0x1D4BB, 0x1D4BB), (0x1D4BD, 0x1D4C3), (0x1D4C5, 0x1D505), (0x1D507, 0x1D50A), (0x1D50D, 0x1D514),
    (0x1D516, 0x1D51C), (0x1D51E, 0x1D539), (0x1D53B, 0x1D53E), (0x1D540, 0x1D544), (0x1D546, 0x1D546), (0x1D54A, 0x1D550),
    (0x1D552, 0x1D6A5), (0x1D6A8, 0x1D6A9), (0x1D6AC, 0x1D6AE), (0x1D6B0, 0x1D6B1), (0x1D6B3, 0x1D6B4), (0x1D6B6, 0x1D6B6),
    (0x1D6B8, 0x1D6B8), (0x1D6BB, 0x1D6BC), (0x1D6BE, 0x1D6BE), (0x1D6C2, 0x1D6C2), (0x1D6C4, 0x1D6C4), (0x1D6CA, 0x1D6CA),
    (0x1D6CE, 0x1D6CE), (0x1D6D0, 0x1D6D0), (0x1D6D2, 0x1D6D2), (0x1D6D4, 0x1D6D4), (0x1D6D6, 0x1D6D6), (0x1D6E0, 0x1D6E0),
    (0x1D6E2, 0x1D6E3), (0x1D6E6, 0x1D6E8), (0x1D6EA, 0x1D6EB), (0x1D6ED, 0x1D6EE), (0x1D6F0, 0x1D6F0), (0x1D6F2, 0x1D6F2),
    (0x1D6F5, 0x1D6F6), (0x1D6F8, 0x1D6F8), (0x1D6FC, 0x1D6FC), (0x1D6FE, 0x1D6FE), (0x1D704, 0x1D704), (0x1D708, 0x1D708),
    (0x1D70A, 0x1D70A), (0x1D70C, 0x1D70C), (0x1D70E, 0x1D70E), (0x1D710, 0x1D710), (0x1D71A, 0x1D71A), (0x1D71C, 0x1D71D),
    (0x1D720, 0x1D722), (0x1D724, 0x1D725), (0x1D727, 0x1D728), (0x1D72A, 0x1D72A), (0x1D72C, 0x1D72C), (0x1D72F, 0x1D730),
    (0x1D732, 0x1D732), (0x1D736, 0x1D736), (0x1D738, 0x1D738), (0x1D73E, 0x1D73E), (0x1D742, 0x1D742), (0x1D744, 0x1D744),
    (0x1D746, 0x1D746), (0x1D748, 0x1D748), (0x1D74A, 0x1D74A), (0x1D754, 0x1D754), (0x1D756, 0x1D757), (0x1D75A, 0x1D75C),
    (0x1D75E, 0x1D75F), (0x1D761, 0x1D762), (0x1D764, 0x1D764), (0x1D766, 0x1D766), (0x1D769, 0x1D76A), (0x1D76C, 0x1D76C),
    (0x1D770, 0x1D770), (0x1D772, 0x1D772), (0x1D778, 0x1D778), (0x1D77C, 0x1D77C), (0x1D77E, 0x1D77E), (0x1D780, 0x1D780),
    (0x1D782, 0x1D782), (0x1D784, 0x1D784), (0x1D78E, 0x1D78E), (0x1D790, 0x1D791), (0x1D794, 0x1D796), (0x1D798, 0x1D799),
    (0x1D79B, 0x1D79C), (0x1D79E, 0x1D79E), (0x1D7A0, 0x1D7A0), (0x1D7A3, 0x1D7A4), (0x1D7A6, 0x1D7A6), (0x1D7AA, 0x1D7AA),
    (0x1D7AC, 0x1D7AC), (0x1D7B2, 0x1D7B2), (0x1D7B6, 0x1D7B6), (0x1D7B8, 0x1D7B8), (0x1D7BA, 0x1D7BA), (0x1D7BC, 0x1D7BC),
    (0x1D7BE, 0x1D7BE), (0x1D7C8, 0x1D7C8), (0x1D7CA, 0x1D7CA), (0x1D7CE, 0x1D7FF), (0x1DF5A, 0x1DF5A), (0x1DF5D, 0x1DF5F),
    (0x1DF64, 0x1DF65), (0x1DF6A, 0x1DF6A), (0x1DF7D, 0x1DF7D), (0x1DF81, 0x1DF81), (0x1E140, 0x1E141), (0x1E145, 0x1E145),
    (0x1E2F0, 0x1E2F0), (0x1E2F2, 0x1E2F2), (0x1E8C7, 0x1E8C7), (0x1E8CB, 0x1E8CB), (0x1ED01, 0x1ED01), (0x1EE00, 0x1EE00),
    (0x1EE24, 0x1EE24), (0x1EE64, 0x1EE64), (0x1EE80, 0x1EE80), (0x1EE84, 0x1EE84), (0x1F190, 0x1F190), (0x1F700, 0x1F700),
    (0x1F707, 0x1F707), (0x1F74C, 0x1F74C), (0x1F75C, 0x1F75C), (0x1F768, 0x1F768), (0x1F76B, 0x1F76C), (0x1FBF0, 0x1FBF9),
    (0xE0000, 0xE0FFF),
];

/// [`SKELETON_LATIN`] below U+10000 as a bitmap (8 KiB), evaluated by the compiler.
static SKELETON_LATIN_BMP: [u64; 1024] = bmp_bitmap(&SKELETON_LATIN);

/// The twin of [`skeleton_is_latin`]: the skeleton computed for `c`.
pub fn skeleton_is_latin_naive(c: char) -> bool {
    let mut buf = [0u8; 4];
    let latin = unicode_security::skeleton(c.encode_utf8(&mut buf))
        .all(|d| d.is_ascii_alphanumeric() || d == '-');
    latin
}

/// True when every character of the UTS #39 §4 skeleton of `c` alone reads as Latin: an
/// ASCII letter, digit or `-` ([`skeleton_is_latin`]), another letter of the Latin script, or
/// a combining mark (Inherited). The whole-script-confusable rule asks this of a label in one
/// non-Latin script (README "Display safety": "its UTS #39 skeleton is all Latin"): `т`'s
/// prototype is `ᴛ` (U+1D1B LATIN LETTER SMALL CAPITAL T), `к`'s `ĸ`, `в`'s `ʙ`, `н`'s `ʜ`,
/// so `сат` (`caᴛ`), `тоу`, `кеу` read as `cat`, `toy`, `key` (they were shown under `.com`:
/// the test was ASCII only; a QA sweep). Per character is exact, as for
/// [`skeleton_is_latin`]. The ASCII-look-alike rule of Latin labels keeps
/// [`skeleton_is_latin`]: there every accented letter's skeleton is Latin.
/// A lookup in [`SKELETON_READS_LATIN`], as [`skeleton_is_latin`] (a [`CharMemo`] of the
/// twin cost to-iri 4.4 % more instructions on `intl.uri.txt`, filling its pages).
#[inline]
pub fn skeleton_reads_latin(c: char) -> bool {
    in_table(&SKELETON_READS_LATIN_BMP, &SKELETON_READS_LATIN, c)
}

/// The code points whose UTS #39 skeleton reads as Latin ([`skeleton_reads_latin_naive`]
/// over every code point, for the confusables data of unicode-security 0.1.3), as
/// [`SKELETON_LATIN`] is made (the test `label_fact_memos_match_twins_on_every_code_point`
/// compares the lookup with the twin on every code point).
#[rustfmt::skip]
static SKELETON_READS_LATIN: [(u32, u32); N_READS] = [
    (0x002D, 0x002D), (0x0030, 0x0039), (0x0041, 0x005A), (0x0061, 0x007A), (0x007C, 0x007C), (0x00A1, 0x00A2),
    (0x00A5, 0x00A5), (0x00AA, 0x00AA), (0x00AD, 0x00AD), (0x00C0, 0x00EF), (0x00F1, 0x00F6), (0x00F8, 0x013E),
    (0x0141, 0x0148), (0x014A, 0x0180), (0x0182, 0x0186), (0x0188, 0x0189), (0x018B, 0x0192), (0x0194, 0x0197),
    (0x0199, 0x019A), (0x019C, 0x01A3), (0x01A5, 0x01AB), (0x01AD, 0x01B2), (0x01B4, 0x01C2), (0x01C4, 0x0240),
    (0x0242, 0x0259), (0x025B, 0x0293), (0x0295, 0x02B1), (0x02B4, 0x02B7), (0x02D7, 0x02D7), (0x02E0, 0x02E0),
    (0x0300, 0x030C), (0x030E, 0x032D), (0x032F, 0x0347), (0x0349, 0x0364), (0x0366, 0x0370), (0x0377, 0x0377),
    (0x037B, 0x037B), (0x037D, 0x037D), (0x037F, 0x037F), (0x0386, 0x0386), (0x0388, 0x038A), (0x038C, 0x038C),
    (0x038E, 0x038E), (0x0390, 0x0392), (0x0395, 0x039D), (0x039F, 0x039F), (0x03A1, 0x03A1), (0x03A3, 0x03A5),
    (0x03A7, 0x03A7), (0x03AA, 0x03B5), (0x03B7, 0x03BA), (0x03BD, 0x03BD), (0x03BF, 0x03BF), (0x03C1, 0x03C1),
    (0x03C3, 0x03C6), (0x03CA, 0x03CD), (0x03D0, 0x03D5), (0x03DC, 0x03DC), (0x03E8, 0x03E9), (0x03EC, 0x03ED),
    (0x03F0, 0x03F5), (0x03F7, 0x03FA), (0x03FD, 0x03FD), (0x03FF, 0x0401), (0x0404, 0x0408), (0x040C, 0x040C),
    (0x040E, 0x040E), (0x0410, 0x0412), (0x0415, 0x0415), (0x0417, 0x0417), (0x041A, 0x041E), (0x0420, 0x0423),
    (0x0425, 0x0425), (0x042B, 0x042C), (0x042E, 0x042E), (0x0430, 0x0433), (0x0435, 0x0435), (0x0437, 0x043A),
    (0x043C, 0x043E), (0x0440, 0x0445), (0x0448, 0x0448), (0x044B, 0x044C), (0x044F, 0x0451), (0x0453, 0x0458),
    (0x045B, 0x045F), (0x0461, 0x0463), (0x0472, 0x0479), (0x0485, 0x0486), (0x048B, 0x048D), (0x0493, 0x0493),
    (0x0498, 0x049B), (0x049E, 0x049F), (0x04A2, 0x04A3), (0x04AA, 0x04B2), (0x04BA, 0x04BB), (0x04BD, 0x04BD),
    (0x04BF, 0x04C0), (0x04C5, 0x04C5), (0x04C7, 0x04CA), (0x04CD, 0x04DB), (0x04DE, 0x04E1), (0x04E3, 0x04E3),
    (0x04E5, 0x04EB), (0x04EE, 0x04F3), (0x04F8, 0x04F9), (0x0501, 0x0501), (0x050A, 0x050A), (0x050C, 0x050D),
    (0x0510, 0x0511), (0x051A, 0x051D), (0x0545, 0x0545), (0x054D, 0x054D), (0x054F, 0x054F), (0x0555, 0x0555),
    (0x0560, 0x0561), (0x0563, 0x0563), (0x0566, 0x0566), (0x056E, 0x056E), (0x0570, 0x0570), (0x0572, 0x0572),
    (0x0575, 0x0575), (0x0578, 0x0578), (0x057A, 0x057A), (0x057C, 0x057D), (0x0581, 0x0582), (0x0584, 0x0585),
    (0x059C, 0x059D), (0x05AF, 0x05AF), (0x05B4, 0x05B4), (0x05B9, 0x05BA), (0x05C0, 0x05C2), (0x05C4, 0x05C5),
    (0x05D5, 0x05D5), (0x05D8, 0x05D8), (0x05DF, 0x05DF), (0x05E1, 0x05E1), (0x05F0, 0x05F0), (0x0618, 0x061A),
    (0x061C, 0x061C), (0x0622, 0x0623), (0x0625, 0x0625), (0x0627, 0x0627), (0x0629, 0x0629), (0x0647, 0x0647),
    (0x064B, 0x0650), (0x0652, 0x065D), (0x065F, 0x065F), (0x0661, 0x0661), (0x0665, 0x0665), (0x0667, 0x0668),
    (0x0673, 0x0673), (0x06BE, 0x06BE), (0x06C0, 0x06C3), (0x06D4, 0x06D5), (0x06DF, 0x06DF), (0x06E8, 0x06E8),
    (0x06EC, 0x06EC), (0x06F1, 0x06F1), (0x06F5, 0x06F5), (0x06F7, 0x06F8), (0x06FF, 0x06FF), (0x073C, 0x073C),
    (0x0740, 0x0742), (0x0747, 0x0747), (0x07A6, 0x07AB), (0x07B0, 0x07B0), (0x07C0, 0x07C0), (0x07CA, 0x07CC),
    (0x07D3, 0x07D3), (0x07D5, 0x07D5), (0x07E0, 0x07E0), (0x07EB, 0x07EB), (0x07ED, 0x07EE), (0x07F2, 0x07F3),
    (0x081B, 0x081B), (0x082C, 0x082C), (0x0840, 0x0840), (0x085A, 0x085B), (0x08E5, 0x08E5), (0x08E8, 0x08E8),
    (0x08EA, 0x08EB), (0x08ED, 0x08EE), (0x08F0, 0x08F3), (0x08F8, 0x08FA), (0x08FF, 0x0902), (0x093C, 0x093C),
    (0x0945, 0x0945), (0x0951, 0x0954), (0x0964, 0x0966), (0x0969, 0x0969), (0x0981, 0x0981), (0x09BC, 0x09BC),
    (0x09E6, 0x09E6), (0x09EA, 0x09EA), (0x09ED, 0x09ED), (0x0A02, 0x0A02), (0x0A3C, 0x0A3C), (0x0A66, 0x0A67),
    (0x0A6A, 0x0A6A), (0x0A81, 0x0A82), (0x0ABC, 0x0ABC), (0x0AE6, 0x0AE6), (0x0AE9, 0x0AE9), (0x0B01, 0x0B01),
    (0x0B03, 0x0B03), (0x0B20, 0x0B20), (0x0B3C, 0x0B3C), (0x0B53, 0x0B54), (0x0B66, 0x0B66), (0x0B68, 0x0B68),
    (0x0B82, 0x0B82), (0x0BCD, 0x0BCD), (0x0BE6, 0x0BE6), (0x0C00, 0x0C00), (0x0C02, 0x0C02), (0x0C04, 0x0C04),
    (0x0C66, 0x0C66), (0x0C81, 0x0C82), (0x0CE6, 0x0CE6), (0x0D00, 0x0D02), (0x0D1F, 0x0D20), (0x0D66, 0x0D66),
    (0x0D6D, 0x0D6D), (0x0D82, 0x0D82), (0x0E3A, 0x0E3A), (0x0E4D, 0x0E4D), (0x0E50, 0x0E50), (0x0EBA, 0x0EBA),
    (0x0ECD, 0x0ECD), (0x0ED0, 0x0ED0), (0x0F37, 0x0F37), (0x0F7E, 0x0F7E), (0x1004, 0x1004), (0x101D, 0x101D),
    (0x1036, 0x1037), (0x1040, 0x1040), (0x104A, 0x104B), (0x105A, 0x105A), (0x1073, 0x1073), (0x10A0, 0x10A0),
    (0x10B9, 0x10B9), (0x10BD, 0x10BD), (0x10C7, 0x10C7), (0x10CD, 0x10CD), (0x10E7, 0x10E7), (0x10F3, 0x10F3),
    (0x10FD, 0x10FD), (0x10FF, 0x10FF), (0x110B, 0x110B), (0x1147, 0x1147), (0x115F, 0x1160), (0x11BC, 0x11BC),
    (0x11EE, 0x11EE), (0x1200, 0x1200), (0x1223, 0x1223), (0x12D0, 0x12D0), (0x1340, 0x1340), (0x135E, 0x135F),
    (0x13A0, 0x13A2), (0x13A4, 0x13A5), (0x13A8, 0x13AC), (0x13B0, 0x13B0), (0x13B3, 0x13B3), (0x13B7, 0x13B7),
    (0x13BB, 0x13BB), (0x13BD, 0x13C0), (0x13C2, 0x13C3), (0x13CB, 0x13CC), (0x13CE, 0x13CF), (0x13D2, 0x13D2),
    (0x13D4, 0x13D5), (0x13D9, 0x13DA), (0x13DE, 0x13DF), (0x13E2, 0x13E2), (0x13E6, 0x13E7), (0x13EB, 0x13EB),
    (0x13EE, 0x13EE), (0x13F0, 0x13F0), (0x13F2, 0x13F4), (0x13FB, 0x13FC), (0x142F, 0x142F), (0x1431, 0x1431),
    (0x144C, 0x144C), (0x146D, 0x146D), (0x146F, 0x146F), (0x1472, 0x1473), (0x148D, 0x148D), (0x14AA, 0x14AA),
    (0x14BF, 0x14BF), (0x1541, 0x1541), (0x1577, 0x1577), (0x157C, 0x157D), (0x1587, 0x1587), (0x15AF, 0x15AF),
    (0x15B4, 0x15B5), (0x15B7, 0x15B7), (0x15C4, 0x15C5), (0x15DE, 0x15DE), (0x15EA, 0x15EA), (0x15F0, 0x15F0),
    (0x15F7, 0x15F7), (0x1616, 0x1616), (0x162E, 0x162E), (0x1634, 0x1634), (0x166D, 0x166E), (0x16A6, 0x16A6),
    (0x16B7, 0x16B7), (0x16C1, 0x16C1), (0x16C5, 0x16C5), (0x16D0, 0x16D0), (0x16D5, 0x16D6), (0x1702, 0x1702),
    (0x172A, 0x172A), (0x174D, 0x174D), (0x1752, 0x1752), (0x1763, 0x1763), (0x17B4, 0x17B5), (0x17C6, 0x17C6),
    (0x17D3, 0x17D3), (0x17E0, 0x17E0), (0x180B, 0x180F), (0x1A45, 0x1A45), (0x1A74, 0x1A74), (0x1A7F, 0x1A80),
    (0x1A90, 0x1A90), (0x1AB0, 0x1AB3), (0x1AB5, 0x1AF0), (0x1B80, 0x1B80), (0x1BEA, 0x1BEA), (0x1BEC, 0x1BEC),
    (0x1BF3, 0x1BF3), (0x1C2E, 0x1C2E), (0x1C37, 0x1C37), (0x1C82, 0x1C84), (0x1C95, 0x1C95), (0x1CB7, 0x1CB7),
    (0x1CBD, 0x1CBD), (0x1CBF, 0x1CBF), (0x1CD0, 0x1CD2), (0x1CD4, 0x1CD7), (0x1CD9, 0x1CE0), (0x1CE2, 0x1CE8),
    (0x1CED, 0x1CED), (0x1CF4, 0x1CF5), (0x1CF8, 0x1CF9), (0x1D00, 0x1D27), (0x1D29, 0x1D29), (0x1D2C, 0x1D34),
    (0x1D36, 0x1D36), (0x1D38, 0x1D3D), (0x1D3F, 0x1D3F), (0x1D41, 0x1D42), (0x1D44, 0x1D48), (0x1D4B, 0x1D4B),
    (0x1D4D, 0x1D51), (0x1D53, 0x1D55), (0x1D57, 0x1D5C), (0x1D63, 0x1D65), (0x1D6B, 0x1D9B), (0x1D9D, 0x1D9E),
    (0x1DA0, 0x1DB0), (0x1DB3, 0x1DB9), (0x1DBC, 0x1DBE), (0x1DC0, 0x1DED), (0x1DEF, 0x1DFD), (0x1DFF, 0x1E29),
    (0x1E2C, 0x1E99), (0x1E9B, 0x1F15), (0x1F18, 0x1F1D), (0x1F20, 0x1F45), (0x1F48, 0x1F4D), (0x1F50, 0x1F57),
    (0x1F59, 0x1F59), (0x1F5B, 0x1F5B), (0x1F5D, 0x1F5D), (0x1F5F, 0x1F5F), (0x1F70, 0x1F7B), (0x1F80, 0x1F9F),
    (0x1FB0, 0x1FB4), (0x1FB6, 0x1FBC), (0x1FBE, 0x1FBE), (0x1FC2, 0x1FC4), (0x1FC6, 0x1FCC), (0x1FD0, 0x1FD3),
    (0x1FD6, 0x1FDB), (0x1FE0, 0x1FEC), (0x1FF8, 0x1FF9), (0x200B, 0x2013), (0x2016, 0x2016), (0x202A, 0x202E),
    (0x2043, 0x2043), (0x2060, 0x206F), (0x2079, 0x2079), (0x207F, 0x207F), (0x2094, 0x209A), (0x209C, 0x209F),
    (0x20A1, 0x20A1), (0x20A5, 0x20A5), (0x20A8, 0x20A9), (0x20AB, 0x20AE), (0x20B6, 0x20B6), (0x20D0, 0x20DA),
    (0x20DC, 0x20F0), (0x2102, 0x2102), (0x2107, 0x2107), (0x210A, 0x2113), (0x2115, 0x2116), (0x2119, 0x211D),
    (0x2121, 0x2121), (0x2124, 0x2124), (0x2127, 0x2134), (0x2139, 0x2139), (0x213B, 0x213B), (0x213D, 0x213D),
    (0x2140, 0x2140), (0x2145, 0x2149), (0x214E, 0x214E), (0x2160, 0x2188), (0x218A, 0x218A), (0x21BF, 0x21BF),
    (0x2200, 0x2200), (0x2203, 0x2205), (0x2211, 0x2212), (0x221E, 0x221E), (0x2223, 0x2226), (0x2228, 0x2228),
    (0x222A, 0x222D), (0x2238, 0x2238), (0x2296, 0x2296), (0x2299, 0x2299), (0x229D, 0x229D), (0x22A4, 0x22A4),
    (0x22C1, 0x22C1), (0x22C3, 0x22C3), (0x22F4, 0x22F4), (0x22FF, 0x2300), (0x2361, 0x2361), (0x2365, 0x2365),
    (0x236C, 0x236C), (0x2373, 0x2374), (0x2376, 0x2378), (0x237A, 0x237A), (0x23FD, 0x23FD), (0x2502, 0x2503),
    (0x256A, 0x256A), (0x2573, 0x2573), (0x2609, 0x2609), (0x2796, 0x2796), (0x27D9, 0x27D9), (0x292B, 0x292C),
    (0x29E2, 0x29E2), (0x2A00, 0x2A00), (0x2A0C, 0x2A0C), (0x2A29, 0x2A2A), (0x2A2F, 0x2A30), (0x2C60, 0x2C7F),
    (0x2C82, 0x2C83), (0x2C85, 0x2C85), (0x2C88, 0x2C89), (0x2C8C, 0x2C95), (0x2C97, 0x2C9F), (0x2CA2, 0x2CA9),
    (0x2CAB, 0x2CAC), (0x2CB2, 0x2CB3), (0x2CBA, 0x2CBB), (0x2CBD, 0x2CBD), (0x2CC4, 0x2CC5), (0x2CCA, 0x2CD3),
    (0x2CDC, 0x2CDD), (0x2CE0, 0x2CE1), (0x2D2D, 0x2D2D), (0x2D31, 0x2D31), (0x2D37, 0x2D3A), (0x2D41, 0x2D41),
    (0x2D49, 0x2D4A), (0x2D4F, 0x2D4F), (0x2D54, 0x2D55), (0x2D59, 0x2D59), (0x2D5D, 0x2D5D), (0x2DE8, 0x2DE8),
    (0x2DEA, 0x2DEA), (0x2DED, 0x2DEF), (0x2DF6, 0x2DF7), (0x2E1A, 0x2E1A), (0x2E39, 0x2E39), (0x3007, 0x3007),
    (0x302A, 0x302D), (0x309A, 0x309A), (0x309C, 0x309C), (0x3112, 0x3112), (0x311A, 0x311A), (0x3147, 0x3147),
    (0x3164, 0x3164), (0x3180, 0x3180), (0x3250, 0x3250), (0x32CC, 0x32CF), (0x3371, 0x3377), (0x337A, 0x337A),
    (0x3380, 0x3381), (0x3383, 0x338B), (0x338E, 0x3394), (0x3396, 0x339A), (0x339C, 0x339E), (0x33A9, 0x33AD),
    (0x33B0, 0x33B1), (0x33B3, 0x33B5), (0x33B7, 0x33BB), (0x33BD, 0x33BF), (0x33C3, 0x33C5), (0x33C8, 0x33D7),
    (0x33D9, 0x33DD), (0x33FF, 0x33FF), (0x4E05, 0x4E05), (0x4E2B, 0x4E2B), (0xA4D0, 0xA4D4), (0xA4D6, 0xA4D7),
    (0xA4D9, 0xA4E3), (0xA4E5, 0xA4E7), (0xA4EA, 0xA4EC), (0xA4EE, 0xA4F4), (0xA50B, 0xA50B), (0xA516, 0xA516),
    (0xA543, 0xA543), (0xA557, 0xA557), (0xA56F, 0xA56F), (0xA576, 0xA576), (0xA589, 0xA589), (0xA5CB, 0xA5CB),
    (0xA5CF, 0xA5CF), (0xA613, 0xA613), (0xA644, 0xA645), (0xA647, 0xA647), (0xA668, 0xA668), (0xA66F, 0xA66F),
    (0xA67C, 0xA67C), (0xA68C, 0xA68D), (0xA695, 0xA695), (0xA698, 0xA699), (0xA69D, 0xA69D), (0xA6A2, 0xA6A2),
    (0xA6B1, 0xA6B2), (0xA6C9, 0xA6C9), (0xA6CD, 0xA6CE), (0xA6DF, 0xA6DF), (0xA6EF, 0xA6F1), (0xA722, 0xA777),
    (0xA779, 0xA787), (0xA78D, 0xA78E), (0xA790, 0xA799), (0xA79C, 0xA79D), (0xA79F, 0xA7B0), (0xA7B2, 0xA7B5),
    (0xA7B8, 0xA7DA), (0xA7DC, 0xA7DD), (0xA7F3, 0xA7F6), (0xA7F8, 0xA7FF), (0xA80B, 0xA80B), (0xA830, 0xA830),
    (0xA8CE, 0xA8CF), (0xA8F6, 0xA8F6), (0xAA5D, 0xAA5D), (0xAA7C, 0xAA7D), (0xAB30, 0xAB52), (0xAB54, 0xAB54),
    (0xAB56, 0xAB5A), (0xAB5C, 0xAB5F), (0xAB61, 0xAB64), (0xAB66, 0xAB69), (0xAB6C, 0xAB6D), (0xAB70, 0xAB72),
    (0xAB74, 0xAB75), (0xAB7A, 0xAB7C), (0xAB7E, 0xAB7E), (0xAB80, 0xAB81), (0xAB83, 0xAB83), (0xAB87, 0xAB87),
    (0xAB8B, 0xAB8B), (0xAB8E, 0xAB8E), (0xAB90, 0xAB90), (0xAB93, 0xAB93), (0xAB9B, 0xAB9C), (0xAB9E, 0xAB9F),
    (0xABA2, 0xABA2), (0xABA4, 0xABA4), (0xABA9, 0xABAA), (0xABAE, 0xABAF), (0xABB2, 0xABB2), (0xABB6, 0xABB6),
    (0xABBB, 0xABBB), (0xABBE, 0xABBE), (0xFB00, 0xFB06), (0xFB29, 0xFB29), (0xFB4B, 0xFB4B), (0xFBA4, 0xFBAD),
    (0xFD3C, 0xFD3D), (0xFE00, 0xFE0F), (0xFE20, 0xFE2D), (0xFE31, 0xFE31), (0xFE58, 0xFE58), (0xFE63, 0xFE63),
    (0xFE81, 0xFE82), (0xFE87, 0xFE88), (0xFE8D, 0xFE8E), (0xFE93, 0xFE94), (0xFEE9, 0xFEEC), (0xFEFF, 0xFEFF),
    (0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A), (0xFF5C, 0xFF5C), (0xFF9F, 0xFFA0), (0xFFB7, 0xFFB7),
    (0xFFE0, 0xFFE0), (0xFFE5, 0xFFE6), (0xFFE8, 0xFFE8), (0xFFF0, 0xFFF8), (0x1017E, 0x1017E), (0x10182, 0x10182),
    (0x1018B, 0x1018B), (0x1018E, 0x1018E), (0x10191, 0x10191), (0x10196, 0x10199), (0x101FD, 0x101FD), (0x10282, 0x10282),
    (0x10286, 0x10287), (0x1028A, 0x1028A), (0x1028D, 0x1028D), (0x10290, 0x10290), (0x10292, 0x10292), (0x10295, 0x10297),
    (0x102A0, 0x102A2), (0x102A5, 0x102A5), (0x102AB, 0x102AB), (0x102B0, 0x102B2), (0x102B4, 0x102B4), (0x102CF, 0x102CF),
    (0x102E0, 0x102E0), (0x102F5, 0x102F5), (0x10301, 0x10302), (0x10309, 0x10309), (0x1030F, 0x1030F), (0x10311, 0x10311),
    (0x10315, 0x10315), (0x10317, 0x10317), (0x1031A, 0x1031A), (0x1031C, 0x1031C), (0x10320, 0x10320), (0x10322, 0x10322),
    (0x10401, 0x10401), (0x10404, 0x10404), (0x10415, 0x10415), (0x1041B, 0x1041B), (0x1041F, 0x10420), (0x10423, 0x10423),
    (0x10429, 0x1042A), (0x1042C, 0x1042C), (0x1043D, 0x1043D), (0x1043F, 0x1043F), (0x10442, 0x10443), (0x10448, 0x10448),
    (0x1044B, 0x1044B), (0x1044D, 0x1044D), (0x104B0, 0x104B0), (0x104B4, 0x104B4), (0x104C2, 0x104C4), (0x104CE, 0x104CE),
    (0x104D2, 0x104D2), (0x104D8, 0x104D8), (0x104EA, 0x104EA), (0x104F6, 0x104F6), (0x10507, 0x10507), (0x1050E, 0x1050E),
    (0x10510, 0x10510), (0x10513, 0x10513), (0x10516, 0x10516), (0x10518, 0x10518), (0x1051B, 0x1051B), (0x1051D, 0x1051E),
    (0x10525, 0x10527), (0x10780, 0x10785), (0x10787, 0x107B0), (0x107B2, 0x107BC), (0x107BE, 0x107BF), (0x10926, 0x10926),
    (0x1092C, 0x1092C), (0x10A0F, 0x10A0F), (0x10A38, 0x10A38), (0x10A3A, 0x10A3A), (0x10AE5, 0x10AE5), (0x10C13, 0x10C13),
    (0x10C17, 0x10C17), (0x10C1F, 0x10C21), (0x10C3E, 0x10C3E), (0x10C82, 0x10C82), (0x10CA5, 0x10CA5), (0x10CC2, 0x10CC2),
    (0x10CFA, 0x10CFA), (0x10CFC, 0x10CFC), (0x10D07, 0x10D07), (0x10ECE, 0x10ECE), (0x10EF3, 0x10EF3), (0x10EF5, 0x10EF5),
    (0x10F46, 0x10F46), (0x10F48, 0x10F49), (0x11001, 0x11001), (0x11047, 0x11048), (0x11081, 0x11081), (0x110BA, 0x110BA),
    (0x110C0, 0x110C1), (0x11101, 0x11102), (0x11124, 0x11124), (0x11141, 0x11142), (0x11173, 0x11173), (0x11181, 0x11181),
    (0x111C5, 0x111C6), (0x111CA, 0x111CA), (0x112DF, 0x112DF), (0x112E9, 0x112E9), (0x11300, 0x11302), (0x1133B, 0x1133C),
    (0x113D4, 0x113D5), (0x11444, 0x11446), (0x1144B, 0x1144C), (0x114BF, 0x114C0), (0x114C3, 0x114C3), (0x114C5, 0x114C5),
    (0x114D0, 0x114D0), (0x115BD, 0x115BD), (0x115C0, 0x115C0), (0x115C5, 0x115C5), (0x1163D, 0x1163D), (0x11641, 0x11642),
    (0x116AB, 0x116AB), (0x116B7, 0x116B7), (0x11700, 0x11700), (0x11706, 0x11706), (0x1170A, 0x1170A), (0x1170E, 0x1170F),
    (0x11837, 0x11837), (0x1183A, 0x1183A), (0x118A0, 0x118A0), (0x118A2, 0x118A4), (0x118A6, 0x118A6), (0x118A9, 0x118A9),
    (0x118AC, 0x118AC), (0x118AE, 0x118AF), (0x118B2, 0x118B2), (0x118B5, 0x118B5), (0x118B8, 0x118B8), (0x118BB, 0x118BC),
    (0x118C0, 0x118C4), (0x118C6, 0x118C6), (0x118C8, 0x118C8), (0x118CA, 0x118CA), (0x118CC, 0x118CC), (0x118CE, 0x118CE),
    (0x118D5, 0x118D8), (0x118DC, 0x118DC), (0x118E0, 0x118E0), (0x118E3, 0x118E3), (0x118E5, 0x118E6), (0x118E9, 0x118E9),
    (0x118EC, 0x118EC), (0x118EF, 0x118EF), (0x118F2, 0x118F2), (0x11A38, 0x11A38), (0x11A96, 0x11A96), (0x11ABC, 0x11ABC),
    (0x11ABE, 0x11ABE), (0x11B66, 0x11B66), (0x11C3D, 0x11C3D), (0x11C41, 0x11C42), (0x11CB5, 0x11CB5), (0x11D95, 0x11D95),
    (0x11DDA, 0x11DDA), (0x11DE0, 0x11DE1), (0x11DF0, 0x11DF0), (0x1699B, 0x1699B), (0x169C1, 0x169C1), (0x169D6, 0x169D6),
    (0x169FE, 0x169FE), (0x16A19, 0x16A19), (0x16AD6, 0x16AD6), (0x16AE4, 0x16AE4), (0x16AE9, 0x16AE9), (0x16D63, 0x16D63),
    (0x16E80, 0x16E80), (0x16E82, 0x16E82), (0x16E8A, 0x16E8A), (0x16EAA, 0x16EAA), (0x16EB6, 0x16EB6), (0x16ED1, 0x16ED1),
    (0x16F08, 0x16F08), (0x16F0A, 0x16F0A), (0x16F16, 0x16F16), (0x16F28, 0x16F28), (0x16F2D, 0x16F2D), (0x16F35, 0x16F35),
    (0x16F3A, 0x16F3B), (0x16F3D, 0x16F3D), (0x16F40, 0x16F40), (0x16F42, 0x16F43), (0x1BCA0, 0x1BCA3), (0x1CCD6, 0x1CCF9),
    (0x1CEFC, 0x1CEFC), (0x1CF00, 0x1CF2D), (0x1CF30, 0x1CF46), (0x1D100, 0x1D100), (0x1D127, 0x1D127), (0x1D134, 0x1D134),
    (0x1D167, 0x1D169), (0x1D173, 0x1D182), (0x1D185, 0x1D18B), (0x1D1AA, 0x1D1AD), (0x1D1FE, 0x1D1FE), (0x1D206, 0x1D207),
    (0x1D20C, 0x1D20D), (0x1D212, 0x1D213), (0x1D216, 0x1D217), (0x1D21A, 0x1D21A), (0x1D221, 0x1D221), (0x1D228, 0x1D228),
    (0x1D22A, 0x1D22A), (0x1D230, 0x1D230), (0x1D25B, 0x1D25C), (0x1D262, 0x1D262), (0x1D373, 0x1D373), (0x1D377, 0x1D377),
    (0x1D400, 0x1D454), (0x1D456, 0x1D49C), (0x1D49E, 0x1D49F), (0x1D4A2, 0x1D4A2), (0x1D4A5, 0x1D4A6), (0x1D4A9, 0x1D4AC),
    (0x1D4AE, 0x1D4B9), (0x1D4BB, 0x1D4BB), (0x1D4BD, 0x1D4C3), (0x1D4C5, 0x1D505), (0x1D507, 0x1D50A), (0x1D50D, 0x1D514),
    (0x1D516, 0x1D51C), (0x1D51E, 0x1D539), (0x1D53B, 0x1D53E), (0x1D540, 0x1D544), (0x1D546, 0x1D546), (0x1D54A, 0x1D550),
    (0x1D552, 0x1D6A6), (0x1D6A8, 0x1D6A9), (0x1D6AC, 0x1D6B4), (0x1D6B6, 0x1D6B6), (0x1D6B8, 0x1D6BC), (0x1D6BE, 0x1D6BE),
    (0x1D6C2, 0x1D6C6), (0x1D6C8, 0x1D6CB), (0x1D6CE, 0x1D6CE), (0x1D6D0, 0x1D6D0), (0x1D6D2, 0x1D6D2), (0x1D6D4, 0x1D6D7),
    (0x1D6DC, 0x1D6E0), (0x1D6E2, 0x1D6E3), (0x1D6E6, 0x1D6EE), (0x1D6F0, 0x1D6F0), (0x1D6F2, 0x1D6F6), (0x1D6F8, 0x1D6F8),
    (0x1D6FC, 0x1D700), (0x1D702, 0x1D705), (0x1D708, 0x1D708), (0x1D70A, 0x1D70A), (0x1D70C, 0x1D70C), (0x1D70E, 0x1D711),
    (0x1D716, 0x1D71A), (0x1D71C, 0x1D71D), (0x1D720, 0x1D728), (0x1D72A, 0x1D72A), (0x1D72C, 0x1D730), (0x1D732, 0x1D732),
    (0x1D736, 0x1D73A), (0x1D73C, 0x1D73F), (0x1D742, 0x1D742), (0x1D744, 0x1D744), (0x1D746, 0x1D746), (0x1D748, 0x1D74B),
    (0x1D750, 0x1D754), (0x1D756, 0x1D757), (0x1D75A, 0x1D762), (0x1D764, 0x1D764), (0x1D766, 0x1D76A), (0x1D76C, 0x1D76C),
    (0x1D770, 0x1D774), (0x1D776, 0x1D779), (0x1D77C, 0x1D77C), (0x1D77E, 0x1D77E), (0x1D780, 0x1D780), (0x1D782, 0x1D785),
    (0x1D78A, 0x1D78E), (0x1D790, 0x1D791), (0x1D794, 0x1D79C), (0x1D79E, 0x1D79E), (0x1D7A0, 0x1D7A4), (0x1D7A6, 0x1D7A6),
    (0x1D7AA, 0x1D7AE), (0x1D7B0, 0x1D7B3), (0x1D7B6, 0x1D7B6), (0x1D7B8, 0x1D7B8), (0x1D7BA, 0x1D7BA), (0x1D7BC, 0x1D7BF),
    (0x1D7C4, 0x1D7C8), (0x1D7CA, 0x1D7CA), (0x1D7CE, 0x1D7FF), (0x1DF00, 0x1DF1E), (0x1DF20, 0x1DF2E), (0x1DF30, 0x1DF3C),
    (0x1DF3E, 0x1DF53), (0x1DF55, 0x1DF81), (0x1DF90, 0x1DF96), (0x1DFCD, 0x1DFF2), (0x1DFF5, 0x1DFFF), (0x1E032, 0x1E032),
    (0x1E047, 0x1E047), (0x1E04F, 0x1E04F), (0x1E132, 0x1E134), (0x1E140, 0x1E141), (0x1E145, 0x1E145), (0x1E2EC, 0x1E2ED),
    (0x1E2F0, 0x1E2F0), (0x1E2F2, 0x1E2F2), (0x1E6EE, 0x1E6EE), (0x1E8C7, 0x1E8C7), (0x1E8CB, 0x1E8CB), (0x1E946, 0x1E946),
    (0x1E948, 0x1E948), (0x1ED01, 0x1ED01), (0x1EE00, 0x1EE00), (0x1EE24, 0x1EE24), (0x1EE64, 0x1EE64), (0x1EE80, 0x1EE80),
    (0x1EE84, 0x1EE84), (0x1F16D, 0x1F16E), (0x1F190, 0x1F190), (0x1F700, 0x1F700), (0x1F707, 0x1F708), (0x1F714, 0x1F714),
    (0x1F74C, 0x1F74C), (0x1F75C, 0x1F75C), (0x1F768, 0x1F768), (0x1F76B, 0x1F76C), (0x1FBF0, 0x1FBF9), (0xE0000, 0xE0FFF),
];
const N_READS: usize = 948;

/// [`SKELETON_READS_LATIN`] below U+10000 as a bitmap (8 KiB), evaluated by the compiler.
static SKELETON_READS_LATIN_BMP: [u64; 1024] = bmp_bitmap(&SKELETON_READS_LATIN);

/// The twin of [`skeleton_reads_latin`]: the skeleton computed for `c`.
pub fn skeleton_reads_latin_naive(c: char) -> bool {
    let mut buf = [0u8; 4];
    let latin = unicode_security::skeleton(c.encode_utf8(&mut buf)).all(reads_latin);
    latin
}

/// A character of a skeleton that reads as Latin ([`skeleton_reads_latin`]).
fn reads_latin(d: char) -> bool {
    d.is_ascii_alphanumeric() || d == '-' || matches!(d.script(), Script::Latin | Script::Inherited)
}

/// What the Script_Extensions of one character says for [`check_label`]'s fast path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptFact {
    /// Common or Inherited: does not restrict the resolved script set (UTS #39 §5.1).
    Neutral,
    /// Exactly one script, neither Common nor Inherited.
    One(Script),
    /// Several scripts, or none (Unknown).
    Several,
}

/// The [`ScriptFact`] of `c`, from a per-page memo of [`script_fact_naive`] ([`PageMemo`]):
/// `unicode-script` answers by a binary search per character.
#[inline]
pub fn script_fact(c: char) -> ScriptFact {
    static MEMO: PageMemo<ScriptFact> = PageMemo::new(script_fact_naive, ScriptFact::Several);
    MEMO.get(c)
}

/// The twin of [`script_fact`], from `unicode-script`'s Script_Extensions.
pub fn script_fact_naive(c: char) -> ScriptFact {
    let e = c.script_extension();
    if e.is_common() || e.is_inherited() {
        return ScriptFact::Neutral;
    }
    match (e.len(), e.iter().next()) {
        (1, Some(s)) => ScriptFact::One(s),
        _ => ScriptFact::Several,
    }
}

/// The twin of [`check_label`]: display safety of one U-label of a host (RFC 3987 §4.1, §8;
/// UTS #39 §5.2, §4), computed with the crates' string functions.
/// `tld` is the host's last label (in Unicode or ASCII form): it decides whether a
/// whole-script confusable is expected there. `Ok` means the label may be shown in Unicode;
/// an all-ASCII label is always `Ok`.
pub fn check_label_naive(label: &str, tld: &str) -> Result<(), Unsafe> {
    if label.is_ascii() {
        return Ok(());
    }
    leading_mark(label)?;
    if let Some(c) = label
        .chars()
        .find(|&c| !c.is_ascii() && !c.identifier_allowed())
    {
        return Err(Unsafe::NotAllowed(c));
    }
    if let Some(&(_, c)) = delimiter_lookalikes(label).first() {
        return Err(Unsafe::DelimiterLookalike(c));
    }
    let chars: Vec<char> = label.chars().collect();
    if let Some(i) =
        (0..chars.len()).find(|&i| is_separator_like(chars[i]) && !separator_context_ok(&chars, i))
    {
        return Err(Unsafe::SeparatorLookalike(chars[i]));
    }
    // UTS #39 §5.2 works on identifiers: ASCII digits and '-' are Common and allowed.
    if label.detect_restriction_level() > RestrictionLevel::ModeratelyRestrictive {
        return Err(Unsafe::MixedScript);
    }
    mark_on_other_script(label)?;
    if dot_above_on_ijl(label) {
        return Err(Unsafe::AsciiLookalike);
    }
    if let Some(s) = single_script(label) {
        // The skeleton of the whole label, or browsers' list of look-alike letters.
        // ASCII characters other than letters (`_`, `'`, which browsers allow in a host)
        // read as themselves: they do not break the Latin reading (`ореп_`, a fourth QA
        // sweep; a label with one never takes `check_label`'s fast path).
        let skeleton_latin = unicode_security::skeleton(label)
            .all(|d| reads_latin(d) || (d.is_ascii() && label.contains(d)))
            || all_look_latin(label);
        if skeleton_latin && !tld_matches(tld, s) {
            return Err(Unsafe::WholeScriptConfusable(s));
        }
    } else if (unicode_security::skeleton(label)
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || (c.is_ascii() && label.contains(c)))
        || foreign_letters_read_latin(label))
        && !ascii_lookalike_expected(label, tld)
    {
        return Err(Unsafe::AsciiLookalike);
    }
    browser_rules(label, tld)
}

/// True when a label mixes Latin with letters of another script and every one of those reads
/// as Latin ([`skeleton_reads_latin`]): the Armenian `ղ` (skeleton `n` and U+0329) in
/// `amazoղ` makes it read `amazon`, though the skeleton is not all ASCII (a QA sweep: it was
/// shown). The same reading of Latin as the whole-script rule's (UTS #39 §4).
fn foreign_letters_read_latin(label: &str) -> bool {
    let mut foreign = false;
    for c in label.chars() {
        let e = c.script_extension();
        if c.is_ascii() || e.is_common() || e.is_inherited() || e.contains_script(Script::Latin) {
            continue;
        }
        if !reads_as_latin(c) {
            return false;
        }
        foreign = true;
    }
    foreign
}

/// Display safety of a whole host in Unicode form (labels separated by `.`): the index of the
/// first label that must stay in `xn--` form, and why. The TLD is the last non-empty label
/// (a trailing root dot is allowed), none for a host of one label ([`tld_of`]).
pub fn check_host(host: &str) -> Result<(), (usize, Unsafe)> {
    let tld = tld_of(host);
    for (i, label) in host.split('.').enumerate() {
        check_label(label, tld).map_err(|u| (i, u))?;
    }
    Ok(())
}

/// `s.split('.')` by a byte loop: host names are short, and `str::split`'s `memchr` set-up
/// cost more than their bytes (~120 instructions per label; issue #11, thirteenth pass).
/// The test `split_dots_is_split` compares the two.
fn split_dots(s: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|b| b == b'.') {
            Some(p) => {
                rest = Some(&r[p + 1..]);
                Some(&r[..p])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// The display form of a host whose ACE form is `ace` and whose ToUnicode is `unicode` (same
/// labels, separated by `.`): each label in Unicode where [`check_label`] allows it, else in
/// its `xn--` form (issue 16; what Chromium and Firefox do label by label). `None` when the two
/// forms do not have the same number of labels.
///
/// Written label by label into one `String` (no vectors of labels: issue #11, tenth pass),
/// the labels split by a byte loop ([`split_dots`], thirteenth pass); the test
/// `display_host_matches_twin` compares it with `display_host_naive`.
pub fn display_host(ace: &str, unicode: &str) -> Option<String> {
    let dots = |s: &str| s.bytes().filter(|&b| b == b'.').count();
    if dots(ace) != dots(unicode) {
        return None;
    }
    let tld = tld_of(unicode);
    let mut shown = String::with_capacity(unicode.len().max(ace.len()));
    for (i, (al, ul)) in split_dots(ace).zip(split_dots(unicode)).enumerate() {
        if i > 0 {
            shown.push('.');
        }
        shown.push_str(if check_label(ul, tld).is_ok() { ul } else { al });
    }
    Some(shown)
}

/// The twin of [`display_host`]: the labels collected, paired, chosen and joined.
#[cfg(any(test, feature = "twins"))]
pub fn display_host_naive(ace: &str, unicode: &str) -> Option<String> {
    let (a, u): (Vec<&str>, Vec<&str>) = (ace.split('.').collect(), unicode.split('.').collect());
    if a.len() != u.len() {
        return None;
    }
    let trimmed = unicode.trim_end_matches('.');
    let tld = match trimmed.rsplit_once('.') {
        Some((_, t)) => t,
        None => "",
    };
    let labels: Vec<&str> = a
        .iter()
        .zip(&u)
        .map(|(&al, &ul)| if check_label(ul, tld).is_ok() { ul } else { al })
        .collect();
    Some(labels.join("."))
}

/// Percent-encodes again (upper-case hex, RFC 3986 §2.1) every character of the decoded
/// component `out[mark..]` that [`delimiter_lookalikes`] finds (`∕` U+2215 shown for
/// `%E2%88%95` would read as a `/`). ASCII characters are left alone: `\` is never decoded
/// by the callers (RFC 3986 §2.2 keeps reserved and disallowed ASCII encoded). Returns true
/// when something was re-encoded.
pub fn reencode_lookalikes(out: &mut Vec<u8>, mark: usize) -> bool {
    reencode_lookalikes_in(out, 0, mark, true, |_| true)
}

/// [`reencode_lookalikes`] for the characters whose offset in `out[mark..]` `decoded` accepts
/// (those a caller produced by percent-decoding; characters written literally stay as they
/// are). Besides the look-alikes of delimiters, a decoded combining mark (General_Category M)
/// whose base would be a character that must not carry one goes back to its `%HH` form
/// ([`mark_base_unsafe`]: `?q=%CC%B8` is not shown `?q=` + U+0338, which reads `?q≠`; RFC
/// 3987 §6.1 b, look-alikes of delimiters; 3987bis §5.1 lists a combining mark starting a
/// component among the characters to avoid), and so does every mark after it. The rule is
/// applied to what is written: a mark after a look-alike put back in `%HH` form, or after
/// another mark kept encoded, sits on a hex digit of a triplet and stays encoded too.
///
/// `marks` false leaves marks alone (normalize's comparison form decodes hosts as they are:
/// there IDNA's NFC makes `=` + U+0338 the host `≠`, `xn--1ch`).
///
/// `out[from..mark]` is what precedes the component in its line, where a mark's base may be;
/// the bytes before `from` are not the line's (a batch writes rows back to back: after the
/// row `a`, `%CC%81x` was decoded onto `a`, found by a QA sweep of the Python package).
pub fn reencode_lookalikes_in(
    out: &mut Vec<u8>,
    from: usize,
    mark: usize,
    marks: bool,
    decoded: impl Fn(usize) -> bool,
) -> bool {
    let Ok(text) = std::str::from_utf8(&out[mark..]) else {
        return false;
    };
    if text.is_ascii() {
        return false;
    }
    let found: Vec<usize> = delimiter_lookalikes(text)
        .into_iter()
        .filter(|&(at, c)| !c.is_ascii() && decoded(at))
        .map(|(at, _)| at)
        .collect();
    let tail = out.split_off(mark);
    let text = std::str::from_utf8(&tail).expect("checked above");
    // Whether the base of the combining sequence being written is one no mark may sit on.
    let mut unsafe_base = mark_base_unsafe(&out[from..]);
    let mut found = found.into_iter().peekable();
    let mut changed = false;
    for (at, c) in text.char_indices() {
        let lookalike = found.next_if_eq(&at).is_some();
        let is_mark = marks && !c.is_ascii() && COMBINING_MARK.get(c);
        if lookalike || (is_mark && unsafe_base && decoded(at)) {
            let mut b = [0u8; 4];
            crate::grammar::pct::push_pct_all(out, c.encode_utf8(&mut b).as_bytes());
            changed = true;
            unsafe_base = true;
        } else {
            out.extend_from_slice(&tail[at..at + c.len_utf8()]);
            if !is_mark {
                unsafe_base = c.is_ascii() && ascii_base_unsafe(&out[from..]);
            }
        }
    }
    changed
}

/// Combining marks (General_Category Mark: Mn, Mc, Me), memoized: the test
/// `combining_mark_memo_matches_twin_on_every_code_point` compares it with
/// `unicode_normalization::char::is_combining_mark` on every code point.
pub(crate) static COMBINING_MARK: CharMemo =
    CharMemo::new(unicode_normalization::char::is_combining_mark);

/// Whether the character that starts `s` (at a non-ASCII byte of UTF-8 text) is a combining
/// mark ([`COMBINING_MARK`]), its code point taken from the bits of its lead and continuation
/// octets without validating them (RFC 3629 §3): a few instructions where `decode_utf8` cost
/// ~40 a character on to-iri's and normalize's passes over `intl_cldr`. A byte that starts no
/// character here (a continuation byte, `C0`, `C1`, `F5`–`FF`, a sequence cut by the end)
/// answers true, so that the caller looks closer; other bytes that are not UTF-8 get some
/// answer (the callers' twins decide on such text, or it never reaches them).
#[inline(always)]
pub(crate) fn starts_with_mark(s: &[u8]) -> bool {
    if NO_MARK_LEAD[usize::from(s[0])] {
        return false;
    }
    let n = s.len();
    let b0 = u32::from(s[0]);
    let c = |k: usize| u32::from(s[k] & 0x3F);
    let cp = if (0xC2..0xE0).contains(&b0) && n >= 2 {
        (b0 & 0x1F) << 6 | c(1)
    } else if (0xE0..0xF0).contains(&b0) && n >= 3 {
        (b0 & 0x0F) << 12 | c(1) << 6 | c(2)
    } else if (0xF0..0xF5).contains(&b0) && n >= 4 {
        (b0 & 0x07) << 18 | c(1) << 12 | c(2) << 6 | c(3)
    } else {
        return true;
    };
    char::from_u32(cp).is_some_and(|c| COMBINING_MARK.get(c))
}

/// Whether the character at `p` of `text` is a combining mark ([`starts_with_mark`]) whose
/// base before `p` must not carry one ([`mark_base_unsafe`]): the test the mark rule's fast
/// exits ask at each place they look (to-iri's decoded runs, normalize's line kernels and
/// scan), the cheap lead-byte test first.
#[inline(always)]
pub(crate) fn mark_on_unsafe_base_at(text: &[u8], p: usize) -> bool {
    starts_with_mark(&text[p..]) && mark_base_unsafe(&text[..p])
}

/// The UTF-8 lead bytes none of whose characters is a combining mark, so that
/// [`starts_with_mark`] answers them without decoding: `C2`–`CB` (U+0080–U+02FF), `CE` `CF`
/// (Greek), `D0` `D1` `D3`–`D5` (Cyrillic, Armenian letters), `E4`–`E9` (CJK ideographs),
/// `EB`–`EE` (Hangul syllables, private use), and the planes `F1`, `F2`, `F4`. Cyrillic,
/// Greek, CJK and Hangul words start about half of `intl_cldr`'s non-ASCII runs. The test
/// `no_mark_leads_start_no_mark` checks every code point of these leads against
/// [`COMBINING_MARK`] (a Unicode version that adds a mark there fails it).
static NO_MARK_LEAD: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0usize;
    while b < 256 {
        t[b] = matches!(b, 0xC2..=0xCB | 0xCE | 0xCF | 0xD0 | 0xD1 | 0xD3..=0xD5 | 0xE4..=0xE9
            | 0xEB..=0xEE | 0xF1 | 0xF2 | 0xF4);
        b += 1;
    }
    t
};

/// The longest run of combining marks [`mark_base_unsafe`] walks back over before it calls
/// the base unsafe without looking further (conservative: the mark stays encoded).
const MARK_WALK: usize = 32;

/// True when a combining mark written right after `before` (a written IRI, or part of one)
/// would sit on a base that must not carry one (issue 16, display safety): the start of the
/// text; an ASCII character that is not a letter or a digit (every delimiter: `=` + U+0338
/// reads `≠`, `/` + U+0338 a different slash); or the last hex digit of a `%HH` triplet (a
/// mark kept encoded, or a look-alike put back). Marks before it belong to the same
/// combining sequence: the walk goes back over them (at most [`MARK_WALK`]) to their base. A
/// non-ASCII base that is not a mark is safe: the mark is part of the word (`é` written
/// `e` + U+0301, Devanagari vowel signs). Bytes that do not end in a UTF-8 character answer
/// true.
pub(crate) fn mark_base_unsafe(before: &[u8]) -> bool {
    let mut end = before.len();
    for _ in 0..=MARK_WALK {
        let Some(&last) = before[..end].last() else {
            return true;
        };
        if last < 0x80 {
            return ascii_base_unsafe(&before[..end]);
        }
        // The start of the last character: up to three continuation octets back.
        let start = (end.saturating_sub(4)..end)
            .rev()
            .find(|&k| before[k] & 0xC0 != 0x80);
        let Some(start) = start else { return true };
        match crate::grammar::pct::decode_utf8(&before[start..end]) {
            Some((c, len)) if start + len == end => {
                if !COMBINING_MARK.get(c) {
                    return false;
                }
                end = start;
            }
            _ => return true,
        }
    }
    true
}

/// [`mark_base_unsafe`] for text that ends with an ASCII character: true unless it is a
/// letter or a digit that does not end a `%HH` triplet (every `%` of a written IRI starts
/// one: RFC 3986 §2.1; the callers refuse a `%` that does not).
fn ascii_base_unsafe(before: &[u8]) -> bool {
    let n = before.len();
    let Some(&last) = before.last() else {
        return true;
    };
    !last.is_ascii_alphanumeric() || (n >= 3 && before[n - 3] == b'%')
}

/// False only when no decoded combining mark in `ranges` (ascending, disjoint byte ranges of
/// `out[mark..]`, as to-iri records them) needs [`reencode_lookalikes_in`]'s mark rule, found
/// without decoding the text: a mark whose base is unsafe either follows an ASCII byte
/// (which [`mark_base_unsafe`] judges) or starts a range (after text that was not decoded,
/// its base found by walking back), or it follows another decoded mark with the same base,
/// found first. So only the non-ASCII characters that start a range or follow an ASCII byte
/// are looked at: the second by [`crate::simd::runs::any_run_start`] over the decoded span,
/// sixteen bytes at a time, each by [`starts_with_mark`]. On text that is not UTF-8 the twin
/// re-encodes nothing, so any answer there leads to the same result.
pub fn ranges_may_hold_unsafe_mark(
    out: &[u8],
    mark: usize,
    ranges: &[std::ops::Range<usize>],
) -> bool {
    let text = &out[mark..];
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return false;
    };
    let (lo, hi) = (first.start.min(text.len()), last.end.min(text.len()));
    let unsafe_mark_at = |p: usize| mark_on_unsafe_base_at(out, mark + p);
    // A range that starts after a non-ASCII byte: not the start of a run.
    for r in ranges {
        let s = r.start;
        if s < text.len()
            && text[s] >= 0x80
            && mark + s > 0
            && out[mark + s - 1] >= 0x80
            && unsafe_mark_at(s)
        {
            return true;
        }
    }
    // Run starts inside a range (the span's first byte counts as one).
    let decoded = |p: usize| {
        let k = ranges.partition_point(|r| r.end <= p);
        ranges.get(k).is_some_and(|r| r.contains(&p))
    };
    lo < hi
        && crate::simd::runs::any_run_start(&text[lo..hi], true, |q| {
            unsafe_mark_at(lo + q) && decoded(lo + q)
        })
}

/// [`reencode_lookalikes_in`] for the characters that start in one of `ranges` (byte ranges
/// of `out[mark..]`, those a caller produced by percent-decoding), with an exit before any
/// allocation or UTF-8 validation of the whole component: nearly every decoded run holds no
/// character whose skeleton has a delimiter and no combining mark on a base that must not
/// carry one ([`ranges_may_hold_unsafe_mark`]), and then nothing can be re-encoded. Otherwise
/// (or when a range does not start on a character) it is [`reencode_lookalikes_in`], its
/// twin; the test `ranges_fast_exit_matches_twin` compares both. `from` as for the twin.
pub fn reencode_lookalikes_in_ranges(
    out: &mut Vec<u8>,
    from: usize,
    mark: usize,
    marks: bool,
    ranges: &[std::ops::Range<usize>],
) -> bool {
    let may = ranges_may_hold_lookalike(&out[mark..], ranges)
        || marks && ranges_may_hold_unsafe_mark(&out[from..], mark - from, ranges);
    if !may {
        return false;
    }
    reencode_lookalikes_in(out, from, mark, marks, |at| {
        ranges.iter().any(|r| r.contains(&at))
    })
}

/// False only when no non-ASCII character starting in `ranges` of `text` has a delimiter in
/// its skeleton ([`skeleton_has_delimiter`]), so that [`delimiter_lookalikes`] can find none
/// there. Bytes that do not decode as UTF-8 (RFC 3629 §4) answer true: the twin decides.
fn ranges_may_hold_lookalike(text: &[u8], ranges: &[std::ops::Range<usize>]) -> bool {
    for r in ranges {
        let end = r.end.min(text.len());
        let mut k = r.start;
        while k < end {
            if text[k] < 0x80 {
                k += 1;
                continue;
            }
            match crate::grammar::pct::decode_utf8(&text[k..]) {
                Some((c, len)) if !skeleton_has_delimiter(c) => k += len,
                _ => return true,
            }
        }
    }
    false
}

/// True when `label` is in the UTS #39 §3.1 profile and mixes no scripts beyond Moderately
/// Restrictive: the profile part of [`check_label`], for callers that report a warning.
pub fn is_moderately_restrictive(label: &str) -> bool {
    label.check_restriction_level(RestrictionLevel::ModeratelyRestrictive)
}

/// The UTS #39 resolved script set of `label` is empty (a mixed-script string, §5.1).
pub fn is_mixed_script(label: &str) -> bool {
    !label.is_single_script()
}

#[cfg(test)]
mod tests {
    /// The TLDs of [`DELEGATED_IDN_TLDS`] whose skeleton reads as Latin
    /// ([`skeleton_reads_latin`]): each is excused as a TLD of its script, and no other
    /// label whose skeleton reads as Latin is.
    #[test]
    fn confusable_delegated_tlds_are_the_latin_reading_ones() {
        let latin: Vec<&str> = DELEGATED_IDN_TLDS
            .iter()
            .copied()
            .filter(|t| t.chars().all(skeleton_reads_latin))
            .collect();
        assert_eq!(
            latin,
            [
                "бг",
                "ком",
                "мон",
                "москва",
                "орг",
                "рус",
                "рф",
                "сайт",
                "срб",
                "укр",
                "қаз",
                "ευ",
                "հայ"
            ]
        );
    }

    use super::*;

    #[test]
    fn browser_rule_bitmaps_match_their_lists() {
        for u in 0..=0x10FFFFu32 {
            if let Some(c) = char::from_u32(u) {
                assert_eq!(looks_latin(c), looks_latin_listed(u), "U+{u:04X}");
                assert_eq!(browser_rule_char(u), browser_rule_listed(u), "U+{u:04X}");
                // Every character a rule names is in the bitmap of characters looked at.
                if is_digit_lookalike(u) || is_cjk_stroke(u) {
                    assert!(browser_rule_char(u), "U+{u:04X}");
                }
            }
        }
        assert!(!looks_latin('a') && looks_latin('п') && !looks_latin('б'));
    }

    #[test]
    fn skeleton_memo_matches_twin_on_every_code_point() {
        let mut found = 0;
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let want = skeleton_has_delimiter_naive(c);
            assert_eq!(skeleton_has_delimiter(c), want, "U+{u:04X}");
            found += want as u32;
        }
        // U+2215, U+29F8, U+FF3C, U+30CE, U+0660 ... and the ASCII delimiters.
        assert!(found > 50, "{found}");
        assert!(skeleton_has_delimiter('\u{2215}') && !skeleton_has_delimiter('\u{E9}'));
    }

    /// The fast exit of [`reencode_lookalikes_in_ranges`] against its twin: every text of up
    /// to 3 pieces from an alphabet of look-alikes (alone, in words of their script, as
    /// symbols), plain letters of several scripts, ASCII and a broken sequence, under every
    /// set of decoded ranges of up to two (including ranges that start inside a character).
    #[test]
    fn label_fact_memos_match_twins_on_every_code_point() {
        let (mut allowed, mut latin, mut one, mut neutral) = (0u32, 0u32, 0u32, 0u32);
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let a = identifier_allowed_naive(c);
            assert_eq!(identifier_allowed(c), a, "U+{u:04X}");
            let l = skeleton_is_latin_naive(c);
            assert_eq!(skeleton_is_latin(c), l, "U+{u:04X}");
            let r = skeleton_reads_latin_naive(c);
            assert_eq!(skeleton_reads_latin(c), r, "U+{u:04X}");
            assert!(r || !l, "U+{u:04X}: ASCII is Latin");
            let f = script_fact_naive(c);
            assert_eq!(script_fact(c), f, "U+{u:04X}");
            allowed += a as u32;
            latin += l as u32;
            one += matches!(f, ScriptFact::One(_)) as u32;
            neutral += (f == ScriptFact::Neutral) as u32;
        }
        // Tens of thousands of allowed identifier characters (33,792 in Unicode 18), a few
        // thousand Latin-looking ones, most assigned characters (163,013) in one script.
        assert!(allowed > 30_000 && latin > 1_000, "{allowed} {latin}");
        assert!(one > 150_000 && neutral > 5_000, "{one} {neutral}");
        assert_eq!(script_fact('\u{430}'), ScriptFact::One(Script::Cyrillic));
        assert_eq!(script_fact('7'), ScriptFact::Neutral);
        assert_eq!(script_fact('\u{FE00}'), ScriptFact::Neutral);
        assert_eq!(script_fact('\u{30FC}'), ScriptFact::Several);
        assert!(skeleton_is_latin('\u{430}') && !skeleton_is_latin('\u{434}'));
        // т (prototype ᴛ), к (ĸ), в (ʙ), н (ʜ), м (ʍ), τ, κ read as Latin; д, л do not.
        for c in ['т', 'к', 'в', 'н', 'м', 'τ', 'κ'] {
            assert!(!skeleton_is_latin(c) && skeleton_reads_latin(c), "{c}");
        }
        assert!(!skeleton_reads_latin('д') && !skeleton_reads_latin('л'));
        assert!(identifier_allowed('\u{E9}') && !identifier_allowed('\u{2215}'));
    }

    /// The range tables are ascending, disjoint and merged (no two ranges touch), as
    /// their binary searches and bitmaps assume.
    #[test]
    fn range_tables_are_ascending_and_merged() {
        for t in [
            &SKELETON_LATIN[..],
            &SKELETON_READS_LATIN[..],
            &SKELETON_DELIMITER[..],
            &DRAWN_AS_DELIMITER[..],
        ] {
            for w in t.windows(2) {
                assert!(w[0].0 <= w[0].1 && w[0].1 + 1 < w[1].0, "{w:X?}");
            }
        }
    }

    #[test]
    fn no_mark_leads_start_no_mark() {
        let mut checked = 0;
        for u in 0x80..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let mut b = [0u8; 4];
            let e = c.encode_utf8(&mut b).as_bytes();
            if NO_MARK_LEAD[usize::from(e[0])] {
                assert!(!COMBINING_MARK.get(c), "U+{u:04X}");
                checked += 1;
            }
            assert_eq!(starts_with_mark(e), COMBINING_MARK.get(c), "U+{u:04X}");
        }
        assert!(checked > 100_000, "{checked}");
        // What is no character's start asks for a closer look.
        for bad in [&b"\x80"[..], b"\xC0\x80", b"\xE0\xA4", b"\xF5\x80\x80\x80"] {
            assert!(starts_with_mark(bad), "{bad:02X?}");
        }
    }

    #[test]
    fn combining_mark_memo_matches_twin_on_every_code_point() {
        let mut marks = 0;
        for u in 0..=0x10FFFFu32 {
            let Some(c) = char::from_u32(u) else { continue };
            let want = unicode_normalization::char::is_combining_mark(c);
            assert_eq!(COMBINING_MARK.get(c), want, "U+{u:04X}");
            marks += want as u32;
        }
        // Unicode has a few thousand marks (2,500 and more since Unicode 15).
        assert!(marks > 2_000, "{marks}");
    }

    /// Issue 16: a decoded combining mark on a delimiter or a `%HH` goes back to `%HH`, with
    /// the marks after it; on a letter, a digit or a non-ASCII character it stays decoded;
    /// a mark written literally stays as it is.
    #[test]
    fn marks_on_delimiters_are_reencoded() {
        let all = |_: usize| true;
        let cases: [(&str, usize, &str); 12] = [
            ("?q=\u{338}x", 0, "?q=%CC%B8x"),
            ("/\u{301}x", 0, "/%CC%81x"),
            ("\u{301}x", 0, "%CC%81x"),
            ("a=\u{301}\u{302}b", 0, "a=%CC%81%CC%82b"),
            ("%2F\u{301}", 0, "%2F%CC%81"),
            ("\u{2215}\u{338}", 0, "%E2%88%95%CC%B8"),
            ("e\u{301}", 0, "e\u{301}"),
            ("1\u{E47}", 0, "1\u{E47}"),
            ("\u{915}\u{93F}", 0, "\u{915}\u{93F}"),
            ("e\u{301}\u{302}", 0, "e\u{301}\u{302}"),
            // The base is before `mark`, in text not decoded.
            ("=\u{338}", 1, "=%CC%B8"),
            ("e\u{301}\u{302}", 1, "e\u{301}\u{302}"),
        ];
        for (text, mark, want) in cases {
            let mut v = text.as_bytes().to_vec();
            let changed = reencode_lookalikes_in(&mut v, 0, mark, true, all);
            assert_eq!(String::from_utf8_lossy(&v), want, "{text:?}");
            assert_eq!(changed, text != want, "{text:?}");
        }
        // Written literally (not decoded): left as it is.
        let mut v = "?q=\u{338}".as_bytes().to_vec();
        assert!(!reencode_lookalikes_in(&mut v, 0, 0, true, |_| false));
        assert_eq!(v, "?q=\u{338}".as_bytes());
        // A literal mark on `=`, then a decoded one: the base is `=`.
        let mut v = "=\u{338}\u{301}".as_bytes().to_vec();
        assert!(reencode_lookalikes_in(&mut v, 0, 0, true, |at| at == 3));
        assert_eq!(v, "=\u{338}%CC%81".as_bytes());
        // A run of marks longer than the walk is judged unsafe.
        let long = format!("e{}", "\u{301}".repeat(MARK_WALK + 1));
        assert!(mark_base_unsafe(long.as_bytes()));
        assert!(!mark_base_unsafe(
            format!("e{}", "\u{301}".repeat(MARK_WALK)).as_bytes()
        ));
    }

    #[test]
    fn ranges_fast_exit_matches_twin() {
        let alphabet: [&[u8]; 12] = [
            "a".as_bytes(),
            "/".as_bytes(),
            "\u{301}".as_bytes(),
            "\u{338}".as_bytes(),
            "%2F".as_bytes(),
            "\u{2215}".as_bytes(),
            "\u{30CE}".as_bytes(),
            "\u{30EB}".as_bytes(),
            "\u{660}".as_bytes(),
            "\u{662}".as_bytes(),
            "\u{E9}".as_bytes(),
            b"\xE2\x88",
        ];
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..3 {
            let next: Vec<Vec<u8>> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |p| [&t[..], p].concat()))
                .collect();
            texts.extend(next);
        }
        texts.sort();
        texts.dedup();
        let (mut compared, mut reencoded) = (0, 0);
        for t in &texts {
            let n = t.len();
            let mut sets: Vec<Vec<std::ops::Range<usize>>> = vec![vec![]];
            for a in 0..=n {
                for b in a..=n {
                    sets.push(std::iter::once(a..b).collect());
                    if b < n {
                        sets.push(vec![a..b, b + 1..n]);
                    }
                }
            }
            for ranges in sets {
                for (prefix, marks) in [(&b""[..], true), (&b"x"[..], true), (&b"="[..], false)] {
                    let mark = prefix.len();
                    let mut fast = [prefix, &t[..]].concat();
                    let mut twin = fast.clone();
                    let rf = reencode_lookalikes_in_ranges(&mut fast, 0, mark, marks, &ranges);
                    let rt = reencode_lookalikes_in(&mut twin, 0, mark, marks, |at| {
                        ranges.iter().any(|r| r.contains(&at))
                    });
                    assert_eq!(
                        (rf, &fast),
                        (rt, &twin),
                        "{:?} {ranges:?}",
                        String::from_utf8_lossy(t)
                    );
                    compared += 1;
                    reencoded += rf as u32;
                }
            }
        }
        assert!(
            compared > 80_000 && reencoded > 10_000,
            "{compared} {reencoded}"
        );
    }

    #[test]
    fn a_long_run_of_lookalikes_is_linear_and_stays_encoded() {
        // Hostile row idna-digits-100k-path: 100,000 U+0660 (skeleton '.'), no witness of
        // their script that is not a look-alike: every one stays encoded. Walking the whole
        // run for each character made this take minutes.
        let run: String = std::iter::repeat_n('\u{660}', 100_000).collect();
        let found = delimiter_lookalikes(&run);
        assert_eq!(found.len(), 100_000);
        assert_eq!(found[1], (2, '\u{660}'));
        // A witness within the walk still exempts (contract item 20: `٢٠٠٠` is shown).
        assert!(delimiter_lookalikes("\u{662}\u{660}\u{660}\u{660}").is_empty());
        // Beyond the walk it does not: more stays encoded, never less.
        let far: String = std::iter::once('\u{662}')
            .chain(std::iter::repeat_n('\u{660}', EXEMPT_WALK + 1))
            .collect();
        assert_eq!(delimiter_lookalikes(&far).len(), 1);
    }

    #[test]
    fn split_dots_is_split() {
        for s in [
            "",
            ".",
            "..",
            "a",
            "a.",
            ".a",
            "a..b",
            "例え.テスト",
            "xn--p1ai.рф.",
            "a.b.c.d",
        ] {
            assert_eq!(
                split_dots(s).collect::<Vec<_>>(),
                s.split('.').collect::<Vec<_>>(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn display_host_matches_twin() {
        let labels = [
            "",
            "a",
            "xn--p1ai",
            "рф",
            "bücher",
            "аррӏе",
            "paypal",
            "раураl",
            "例え",
            "テスト",
            "ภาษาไทย",
            "\u{2215}x",
            "com",
            "x.y",
        ];
        let mut n = 0;
        for a in labels {
            for b in labels {
                for c in labels {
                    for (ace, uni) in [
                        (format!("{a}.{b}"), format!("{b}.{c}")),
                        (format!("{a}.{b}.{c}"), format!("{c}.{b}.{a}.")),
                        (a.to_owned(), format!("{b}{c}")),
                        (format!("{a}.{c}."), format!("{b}.{c}.")),
                    ] {
                        assert_eq!(
                            display_host(&ace, &uni),
                            display_host_naive(&ace, &uni),
                            "{ace} {uni}"
                        );
                        n += 1;
                    }
                }
            }
        }
        assert!(n > 10_000, "{n}");
    }

    #[test]
    fn display_host_keeps_unsafe_labels_in_ace() {
        assert_eq!(
            display_host("xn--80ak6aa92e.com", "аррӏе.com").as_deref(),
            Some("xn--80ak6aa92e.com")
        );
        assert_eq!(
            display_host("xn--bcher-kva.de", "bücher.de").as_deref(),
            Some("bücher.de")
        );
        assert_eq!(display_host("a.b", "a"), None);
        let mut v = "x/a\u{2215}b/古ノルド語".as_bytes().to_vec();
        assert!(reencode_lookalikes(&mut v, 2));
        assert_eq!(String::from_utf8(v).unwrap(), "x/a%E2%88%95b/古ノルド語");
        let mut w = "ノルウェー".as_bytes().to_vec();
        assert!(!reencode_lookalikes(&mut w, 0));
    }

    #[test]
    fn delimiter_lookalikes_are_found_by_skeleton() {
        for c in [
            '∕', '⁄', '⧸', '∖', '＼', '﹨', '．', '։', '፡', '‥', '…', 'ノ', '٠', '۰',
        ] {
            assert!(skeleton_has_delimiter(c), "U+{:04X}", c as u32);
        }
        for c in ['a', 'é', 'ß', 'ル', '語', '٢', 'д'] {
            assert!(!skeleton_has_delimiter(c), "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn words_of_their_own_script_stay_displayable() {
        for w in ["古ノルド語", "ノルウェー", "۲۰۱۶", "٢٠٠٠", "दुःख", "ノ-語"]
        {
            assert_eq!(delimiter_lookalikes(w), vec![], "{w}");
            for (at, _) in w.char_indices() {
                assert!(!must_stay_encoded(w, at), "{w} at {at}");
            }
        }
    }

    #[test]
    fn symbols_and_lone_lookalikes_are_never_exempt() {
        for w in [
            "∕", "⁄", "⧸", "∖", "＼", "﹨", "½", "‥", "…", "։", "፡", "．", "\\",
        ] {
            assert_eq!(delimiter_lookalikes(w).len(), 1, "{w}");
            assert!(must_stay_encoded(w, 0), "{w}");
            // Not even inside a word of some script.
            let word = format!("語{w}語");
            assert!(must_stay_encoded(&word, '語'.len_utf8()), "{word}");
        }
        let cases = [
            ("goodノevil", 'ノ'),
            ("a۰b", '۰'),
            ("٠", '٠'),
            ("ノ.語", 'ノ'),
        ];
        for (w, c) in cases {
            let found = delimiter_lookalikes(w);
            assert_eq!(found.len(), 1, "{w}: {found:?}");
            assert_eq!(found[0].1, c, "{w}");
            assert!(must_stay_encoded(w, found[0].0), "{w}");
        }
        assert_eq!(delimiter_lookalikes("ノノ").len(), 2);
    }

    #[test]
    fn plain_characters_are_decoded() {
        assert!(!must_stay_encoded("résumé", 1));
        assert!(!must_stay_encoded("日本", 0));
        // The U+2215 case of issue 16: `good.com%E2%88%95login`.
        let t = "good.com\u{2215}login";
        assert!(must_stay_encoded(t, 8));
    }

    #[test]
    fn labels_the_browsers_show() {
        for (l, tld) in [
            ("bücher", "de"),
            ("例え", "テスト"),
            ("пример", "рф"),
            ("пример", "ru"),
            ("ουτοπία", "gr"),
            ("münchen-2", "de"),
            ("ノルウェー", "jp"),
            ("faß", "de"),
            ("日本語abc", "com"),
            ("한국", "kr"),
            ("مثال", "com"),
        ] {
            assert_eq!(check_label(l, tld), Ok(()), "{l}.{tld}");
        }
        assert_eq!(check_host("www.bücher.de."), Ok(()));
    }

    #[test]
    fn labels_that_stay_ace() {
        // Issue 16: xn--80ak6aa92e.com is аррӏе.com, all Cyrillic.
        assert_eq!(
            check_label("аррӏе", "com"),
            Err(Unsafe::WholeScriptConfusable(Script::Cyrillic))
        );
        assert_eq!(check_label("аррӏе", "ru"), Ok(()));
        assert_eq!(
            check_host("аррӏе.com"),
            Err((0, Unsafe::WholeScriptConfusable(Script::Cyrillic)))
        );
        // Latin + Cyrillic, Latin + Greek: beyond moderately restrictive.
        assert_eq!(check_label("pаypal", "com"), Err(Unsafe::MixedScript));
        assert_eq!(check_label("αbc", "com"), Err(Unsafe::MixedScript));
        // Issue 16: good.xn--comevil-ef0d.com shown as good.com∕evil.com.
        assert_eq!(
            check_host("good.com\u{2215}evil.com"),
            Err((1, Unsafe::NotAllowed('\u{2215}')))
        );
        assert_eq!(
            check_label("goodノevil", "com"),
            Err(Unsafe::DelimiterLookalike('ノ'))
        );
        assert_eq!(
            check_label("ノノ", "jp"),
            Err(Unsafe::DelimiterLookalike('ノ'))
        );
        assert!(matches!(
            check_label("a\u{2044}b", "com"),
            Err(Unsafe::NotAllowed(_) | Unsafe::DelimiterLookalike(_))
        ));
        assert!(check_label("\u{1F600}", "com").is_err());
    }

    #[test]
    fn script_helpers() {
        assert!(tld_matches("рф", Script::Cyrillic));
        assert!(tld_matches("RU", Script::Cyrillic));
        assert!(!tld_matches("com", Script::Cyrillic));
        assert!(is_mixed_script("pаypal"));
        assert!(!is_mixed_script("paypal"));
        assert!(is_moderately_restrictive("日本語abc"));
        assert!(!is_moderately_restrictive("pаypal"));
        assert!(Unsafe::MixedScript.to_string().contains("UTS #39"));
    }
}
