//! The contexts in which ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER are allowed
//! (RFC 5892 Appendix A.1 and A.2, the CONTEXTJ rules of IDNA2008; 3987bis §5.1 asks IRIs to
//! follow them too, and `check` warns `joiner-context` where they are not).
//!
//! - A.1 ZWNJ (U+200C): allowed when the character before it is a virama
//!   (Canonical_Combining_Class 9), **or** when it sits between joining characters:
//!   `(Joining_Type:{L,D})(Joining_Type:T)* ZWNJ (Joining_Type:T)*(Joining_Type:{R,D})`.
//!   The second rule is how Persian writes `برمه‌ای` (a ZWNJ between a dual-joining HEH and
//!   a right-joining ALEF).
//! - A.2 ZWJ (U+200D): allowed only when the character before it is a virama.
//!
//! The context is the string given: one IRI component for `check`, one label for IDNA.
//! Joining_Type comes from the `unicode-joining-type` crate (Unicode 16), the combining class
//! from `unicode-normalization`.

use unicode_joining_type::{get_joining_type, JoiningType};

/// U+200C ZERO WIDTH NON-JOINER.
pub const ZWNJ: char = '\u{200C}';
/// U+200D ZERO WIDTH JOINER.
pub const ZWJ: char = '\u{200D}';

/// True if `c` has Canonical_Combining_Class Virama (9).
#[inline]
pub fn is_virama(c: char) -> bool {
    unicode_normalization::char::canonical_combining_class(c) == 9
}

/// True if the joiner at byte `i` of `s` (a ZWNJ or a ZWJ) is in its RFC 5892 context
/// (A.1 for ZWNJ, A.2 for ZWJ). Any other character at `i` is in context.
pub fn in_context(s: &str, i: usize) -> bool {
    let c = s[i..].chars().next().expect("a character at i");
    if c != ZWNJ && c != ZWJ {
        return true;
    }
    let before = s[..i].chars().next_back();
    // A.1 and A.2: "If Canonical_Combining_Class(Before(cp)) .eq. Virama Then True".
    if before.is_some_and(is_virama) {
        return true;
    }
    if c == ZWJ {
        return false;
    }
    // A.1: "If RegExpMatch((Joining_Type:{L,D})(Joining_Type:T)*\u200C
    //        (Joining_Type:T)*(Joining_Type:{R,D})) Then True".
    let left = s[..i]
        .chars()
        .rev()
        .map(get_joining_type)
        .find(|&t| t != JoiningType::Transparent);
    let right = s[i + c.len_utf8()..]
        .chars()
        .map(get_joining_type)
        .find(|&t| t != JoiningType::Transparent);
    matches!(
        left,
        Some(JoiningType::LeftJoining | JoiningType::DualJoining)
    ) && matches!(
        right,
        Some(JoiningType::RightJoining | JoiningType::DualJoining)
    )
}

/// The byte offset in `s` of the first ZWNJ or ZWJ outside its context, if any.
///
/// ```
/// use iribulk::grammar::joiner::first_out_of_context;
/// assert_eq!(first_out_of_context("برمه\u{200C}ای"), None); // Persian, RFC 5892 A.1
/// assert_eq!(first_out_of_context("a\u{200D}b"), Some(1));  // ZWJ not after a virama
/// ```
pub fn first_out_of_context(s: &str) -> Option<usize> {
    // Joiners are 3 bytes E2 80 8C / E2 80 8D: skip strings without one at byte speed.
    memchr::memmem::find_iter(s.as_bytes(), b"\xE2\x80")
        .find(|&i| matches!(s.as_bytes().get(i + 2), Some(0x8C | 0x8D)) && !in_context(s, i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The slow twin: the RFC's pseudo-code over a vector of characters.
    fn slow(s: &str) -> Option<usize> {
        let v: Vec<(usize, char)> = s.char_indices().collect();
        for (k, &(off, c)) in v.iter().enumerate() {
            if c != ZWNJ && c != ZWJ {
                continue;
            }
            let virama =
                k > 0 && unicode_normalization::char::canonical_combining_class(v[k - 1].1) == 9;
            let ok = virama
                || (c == ZWNJ && {
                    let jt = |j: usize| get_joining_type(v[j].1);
                    let mut a = k;
                    while a > 0 && jt(a - 1) == JoiningType::Transparent {
                        a -= 1;
                    }
                    let mut b = k + 1;
                    while b < v.len() && jt(b) == JoiningType::Transparent {
                        b += 1;
                    }
                    a > 0
                        && matches!(
                            jt(a - 1),
                            JoiningType::LeftJoining | JoiningType::DualJoining
                        )
                        && b < v.len()
                        && matches!(jt(b), JoiningType::RightJoining | JoiningType::DualJoining)
                });
            if !ok {
                return Some(off);
            }
        }
        None
    }

    #[test]
    fn rfc5892_contexts() {
        let cases: &[(&str, Option<usize>)] = &[
            ("برمه\u{200C}ای", None),           // Persian: HEH (D) ZWNJ ALEF (R)
            ("می\u{200C}خواهم", None),          // Persian: YEH (D) ZWNJ KHAH (D)
            ("ب\u{64E}\u{200C}\u{64E}ا", None), // transparent marks on both sides
            ("क्\u{200C}ष", None),               // ZWNJ after a virama (A.1, first rule)
            ("क्\u{200D}ष", None),               // ZWJ after a virama (A.2)
            ("a\u{200C}b", Some(1)),            // Latin: no joining context
            ("a\u{200D}b", Some(1)),
            ("ب\u{200D}ب", Some(2)), // ZWJ between joining letters: not allowed
            ("د\u{200C}ا", Some(2)), // DAL is R: nothing joins from the left
            ("ب\u{200C}", Some(2)),  // nothing after
            ("\u{200C}ا", Some(0)),  // nothing before
            ("ب\u{200C} ا", Some(2)), // a space (U) between
            ("ok", None),
            ("\u{2013}\u{2014}", None), // E2 80 lead bytes that are no joiners
        ];
        for &(s, want) in cases {
            assert_eq!(first_out_of_context(s), want, "{s:?}");
            assert_eq!(slow(s), want, "twin {s:?}");
        }
        assert!(in_context("x", 0));
    }

    /// Persian words that use ZWNJ between joining letters.
    #[test]
    fn persian_words_pass() {
        for w in [
            "برمه\u{200C}ای",
            "کتاب\u{200C}ها",
            "کی\u{200C}بورد",
            "نمی\u{200C}دانم",
        ] {
            assert_eq!(first_out_of_context(w), None, "{w}");
        }
        // After REH (Joining_Type R) the ZWNJ joins nothing: RFC 5892 A.1 does not allow it.
        assert_eq!(first_out_of_context("جزایر\u{200C}ویرجین"), Some(10));
    }

    #[test]
    fn data_file_rows() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/joiner_context.tsv");
        let text = std::fs::read_to_string(path).expect("tests/data/joiner_context.tsv");
        let mut n = 0;
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 4, "{line}");
            if f[0] == "id" {
                continue;
            }
            let got = match first_out_of_context(f[1]) {
                None => "OK".to_string(),
                Some(i) => format!("WARN@{i}"),
            };
            assert_eq!(got, f[2], "row {} ({})", f[0], f[3]);
            assert_eq!(first_out_of_context(f[1]), slow(f[1]), "twin, row {}", f[0]);
            n += 1;
        }
        assert!(n >= 10, "only {n} rows");
    }

    fn text() -> impl Strategy<Value = String> {
        let alphabet = prop::sample::select(vec![
            '\u{200C}',
            '\u{200D}',
            'a',
            'ب',
            'ا',
            'د',
            '\u{64E}',
            'क',
            '\u{94D}',
            'ـ',
            ' ',
            '\u{2013}',
            '\u{10ACD}',
            '\u{1E94B}',
        ]);
        prop::collection::vec(alphabet, 0..12).prop_map(|v| v.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]
        #[test]
        fn fast_equals_twin(s in text()) {
            prop_assert_eq!(first_out_of_context(&s), slow(&s));
        }
    }
}
