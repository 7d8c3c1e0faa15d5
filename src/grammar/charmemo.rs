//! A per-process memo of a fixed property of code points: for predicates that depend only on
//! the character (its NFKC form, its UTS #39 skeleton, its UTS #46 mapping) and cost hundreds
//! of instructions to evaluate, asked once per character of every line on the slow path.
//!
//! The code space is cut into 128-code-point pages; a page's 128 answers are computed the first
//! time one of its characters is asked about, and kept as two `u64` words. A real crawl touches
//! a few hundred of the 8,704 pages, so the first use costs little, and every later answer is
//! an atomic load and a bit test.

use std::sync::OnceLock;

/// Code points per page: 2^7 = 128 (two `u64` words of answers).
const PAGE_BITS: u32 = 7;
/// Pages covering U+0000..=U+10FFFF.
const PAGES: usize = 0x11_0000 >> PAGE_BITS;

/// A lazily filled bitmap of `pred` over every code point. Build it in a `static` with
/// [`CharMemo::new`]; [`CharMemo::get`] answers like `pred`, which stays the obviously correct
/// twin (each user tests the memo against it on every code point).
pub struct CharMemo {
    pred: fn(char) -> bool,
    pages: [OnceLock<[u64; 2]>; PAGES],
}

impl CharMemo {
    /// A memo of `pred`, empty until asked.
    pub const fn new(pred: fn(char) -> bool) -> CharMemo {
        CharMemo {
            pred,
            pages: [const { OnceLock::new() }; PAGES],
        }
    }

    /// `pred(c)`, from the bitmap of `c`'s page (filled on the page's first use).
    #[inline]
    pub fn get(&self, c: char) -> bool {
        let u = c as u32;
        self.word(u) >> (u & 63) & 1 != 0
    }

    /// The answers for the 128 code points of the page holding `u` (`u >> 7`): bit `k % 64`
    /// of word `k / 64` is `pred` of code point `(u & !127) + k` (0 for a surrogate). In
    /// UTF-8 a page is the characters that share every byte but the last and the lowest bit
    /// of the one before it (RFC 3629 §3), so a caller can find the page and the bit without
    /// decoding. Filled on first use, like [`CharMemo::get`], which reads one bit of it.
    #[inline]
    pub fn page(&self, u: u32) -> &[u64; 2] {
        self.pages[(u >> PAGE_BITS) as usize].get_or_init(|| {
            let base = u & !((1 << PAGE_BITS) - 1);
            let mut bits = [0u64; 2];
            for k in 0..1u32 << PAGE_BITS {
                if char::from_u32(base + k).is_some_and(self.pred) {
                    bits[(k >> 6) as usize] |= 1 << (k & 63);
                }
            }
            bits
        })
    }

    /// The 64 answers of [`CharMemo::page`] for the half page holding `u`: bit `k` is `pred`
    /// of code point `(u & !63) + k`.
    #[inline]
    pub fn word(&self, u: u32) -> u64 {
        self.page(u)[((u >> 6) & 1) as usize]
    }
}

/// A lazily filled table of `f` over every code point, for properties with a few values
/// (a bidi strength, a script fact): the page scheme of [`CharMemo`] with one `T` per code
/// point. Code points that are not `char`s (surrogates) read as `none`. Build it in a `static`
/// with [`PageMemo::new`]; each user tests it against `f` on every code point.
pub struct PageMemo<T: Copy + 'static> {
    f: fn(char) -> T,
    none: T,
    pages: [OnceLock<[T; 1 << PAGE_BITS]>; PAGES],
}

impl<T: Copy + 'static> PageMemo<T> {
    /// A memo of `f`, empty until asked; `none` fills the slots of non-characters.
    pub const fn new(f: fn(char) -> T, none: T) -> PageMemo<T> {
        PageMemo {
            f,
            none,
            pages: [const { OnceLock::new() }; PAGES],
        }
    }

    /// `f(c)`, from the table of `c`'s page (filled on the page's first use).
    #[inline]
    pub fn get(&self, c: char) -> T {
        let u = c as u32;
        let page = self.pages[(u >> PAGE_BITS) as usize].get_or_init(|| {
            let base = u & !((1 << PAGE_BITS) - 1);
            let mut v = [self.none; 1 << PAGE_BITS];
            for (k, slot) in v.iter_mut().enumerate() {
                if let Some(d) = char::from_u32(base + k as u32) {
                    *slot = (self.f)(d);
                }
            }
            v
        });
        page[(u & ((1 << PAGE_BITS) - 1)) as usize]
    }
}

impl std::fmt::Debug for CharMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self.pages.iter().filter(|p| p.get().is_some()).count();
        write!(f, "CharMemo {{ pages filled: {filled} of {PAGES} }}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odd_or_cjk(c: char) -> bool {
        (c as u32) % 2 == 1 || ('\u{4E00}'..='\u{9FFF}').contains(&c)
    }

    fn plane_and_parity(c: char) -> u8 {
        ((c as u32 >> 16) as u8) << 1 | (c as u32 & 1) as u8
    }

    #[test]
    fn page_memo_answers_like_its_function_on_every_code_point() {
        static M: PageMemo<u8> = PageMemo::new(plane_and_parity, u8::MAX);
        for u in (0..=0x10FFFFu32).rev().step_by(5).chain(0..=0x10FFFF) {
            if let Some(c) = char::from_u32(u) {
                assert_eq!(M.get(c), plane_and_parity(c), "U+{u:04X}");
            }
        }
    }

    #[test]
    fn answers_like_its_predicate_on_every_code_point() {
        static M: CharMemo = CharMemo::new(odd_or_cjk);
        for u in (0..=0x10FFFFu32).rev().step_by(5).chain(0..=0x10FFFF) {
            if let Some(c) = char::from_u32(u) {
                assert_eq!(M.get(c), odd_or_cjk(c), "U+{u:04X}");
            }
        }
        // `page` and `word` are the bits of `get` around each code point (surrogates read
        // as 0).
        static W: CharMemo = CharMemo::new(odd_or_cjk);
        for u in (0..=0x10FFFFu32).step_by(61) {
            let (p, w) = (W.page(u), W.word(u));
            for k in 0..128 {
                let want = char::from_u32((u & !127) + k).is_some_and(odd_or_cjk);
                assert_eq!(
                    p[(k / 64) as usize] >> (k % 64) & 1 != 0,
                    want,
                    "U+{u:04X} {k}"
                );
                if (k / 64) == (u >> 6) & 1 {
                    assert_eq!(w >> (k % 64) & 1 != 0, want, "U+{u:04X} bit {k}");
                }
            }
        }
        // Every page but the 16 of the surrogates (no `char` there).
        assert!(
            format!("{M:?}").contains("pages filled: 8688 of 8704"),
            "{M:?}"
        );
    }
}
