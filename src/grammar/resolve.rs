//! Reference resolution: RFC 3986 §5.2 applied to IRIs (RFC 3987 §6.5, 3987bis §5.5).
//!
//! RFC 3987 §6.5: "the algorithms of \[RFC3986\] can be applied directly, treating the characters
//! additionally allowed in IRI references in the same way that unreserved characters are in URI
//! references". Every delimiter the algorithm looks at (`:` `/` `?` `#` and the `.` of dot
//! segments) is ASCII, so the algorithm runs on the UTF-8 bytes of the IRIs as they are: non-ASCII
//! characters are copied like unreserved characters, nothing is percent-encoded or decoded, and
//! the target keeps the form (IRI or URI) its parts had.
//!
//! Steps, each citing its section:
//! 1. Both references are split by [`crate::grammar::components::split`] (RFC 3986 Appendix B, §5.2.1).
//!    The base must have a scheme (§5.1: the base URI is absolute); its fragment is ignored.
//! 2. The target's components follow §5.2.2 **strictly** (a reference with a scheme is never
//!    treated as relative, even when the scheme is the base's: `foo:g` stays `foo:g`), except
//!    for the special schemes of browsers (`http https ws wss ftp file`, WHATWG URL §4.1):
//!    there §5.2.2's non-strict branch applies ("if ((not strict) and (R.scheme ==
//!    Base.scheme)) then undefine(R.scheme)"), as browsers do, so `http:g` against
//!    `http://a/b/c/d` is `http://a/b/c/g` (issue 16: `http:/evil.com` must not leave the
//!    base's host for a path that a browser reads as a host).
//! 3. Relative paths are merged with the base path (§5.2.3).
//! 4. Dot segments are removed by [`remove_dot_segments`] (§5.2.4), a segment spelled with
//!    `%2E` (`%2E%2E`, `.%2e`) counting as one: `%2E` is the unreserved `.` (§2.3, §6.2.2.2)
//!    and browsers read such a segment as a dot segment (WHATWG URL, "double-dot URL path
//!    segment"). §5.2.4 reads literal dots only, so there a `..` after `%2E%2E` removes the
//!    encoded segment itself: against `http://a/b/%2E%2E/c`, `../x` would be `http://a/b/x`
//!    where a browser goes to `http://a/x` (§5.2.1 allows normalizing the base first, which
//!    gives the browser's answer; found with a QA sweep of normalize's `--path`).
//! 5. The target is recomposed (§5.3).
//!
//! A `blob:` reference with a rootless path (its path is a URL: `blob:https://a/x`) keeps the
//! path as written: §5.2.4 would turn `blob:https://a/../b/x` into `blob:https://b/x`, another
//! host for a browser, for which that path is opaque (WHATWG URL §4.4; issue 16).
//!
//! One safeguard §5.3 does not spell out: a target **without authority** whose path starts with
//! `//` (`foo:/a/..//b` or the base `foo:/a/b` with `..//x`) would read back with an authority
//! (`foo://x`). Such a path is written with a `/.` prefix (`foo:/.//x`), the same path after
//! dot-segment removal, as the WHATWG URL standard does. Nothing else deviates from §5.2.
//!
//! No validation beyond the schemes is done: resolution is purely syntactic (§5.2), and
//! validating the parts is the converters' job.
//!
//! ```
//! let mut out = Vec::new();
//! iribulk::grammar::resolve::resolve_into(b"http://a/b/c/d;p?q", b"../g", &mut out)?;
//! assert_eq!(out, b"http://a/b/g");
//! out.clear();
//! iribulk::grammar::resolve::resolve_into("http://例え.テスト/ä/b".as_bytes(), "../ö?q".as_bytes(), &mut out)?;
//! assert_eq!(String::from_utf8(out).unwrap(), "http://例え.テスト/ö?q");
//! # Ok::<(), iribulk::LineError>(())
//! ```

use crate::error::{ErrorKind, LineError};
use crate::grammar::components::{self, Components};
use std::ops::Range;

/// Resolves `reference` against `base` (an absolute IRI), appending the target to `out`
/// (RFC 3986 §5.2.2 strict, §5.2.3 merge, §5.2.4 remove_dot_segments, §5.3 recomposition).
///
/// Errors (nothing is appended):
/// * the base has no scheme: [`ErrorKind::BadScheme`] at offset 0 (of the base). The error
///   enum has no code of its own for "not an absolute base"; `bad-scheme` is the closest.
/// * the base's scheme is invalid (RFC 3986 §3.1): [`ErrorKind::BadScheme`] at its offset in
///   the base.
/// * the reference's scheme is invalid, or it starts with `:` (RFC 3986 §3.1, §4.2):
///   [`ErrorKind::BadScheme`] at its offset in the reference.
///
/// So every error is `bad-scheme`; its offset is in the base exactly when the base has no
/// valid scheme (check the base first if you need to tell them apart).
///
/// Allocation: none beyond the growth of `out`. The merged path is written into `out` and its
/// dot segments removed in place.
pub fn resolve_into(base: &[u8], reference: &[u8], out: &mut Vec<u8>) -> Result<(), LineError> {
    // Step 1: components (§5.2.1).
    let b: Components = components::split(base);
    let Some(bscheme) = b.scheme.clone() else {
        return Err(LineError::new(ErrorKind::BadScheme, 0));
    };
    components::check_scheme(base, &b)?;
    let mut r: Components = components::split(reference);
    components::check_scheme(reference, &r)?;
    // §5.2.2 non-strict for special schemes (module docs, step 2).
    if let Some(rs) = r.scheme.clone() {
        let rscheme = &reference[rs];
        if components::is_special_scheme(rscheme)
            && rscheme.eq_ignore_ascii_case(&base[bscheme.clone()])
        {
            r.scheme = None;
        }
    }

    out.reserve(base.len() + reference.len());
    // Step 2: the target's components (§5.2.2), recomposed as they are found (§5.3).
    let has_authority;
    let path_start;
    if let Some(rs) = r.scheme.clone() {
        // T.scheme = R.scheme; T.authority = R.authority; T.path = remove_dot_segments(R.path);
        // T.query = R.query.
        out.extend_from_slice(&reference[rs.start..rs.end + 1]);
        has_authority = push_authority(reference, &r, out);
        path_start = out.len();
        let rpath = &reference[r.path.clone()];
        if reference[rs].eq_ignore_ascii_case(b"blob") && !rpath.starts_with(b"/") {
            // A blob's path is a URL (W3C File API §8.3; WHATWG URL §4.4 opaque path):
            // removing dot segments there would move its host (`blob:https://a/../b`).
            out.extend_from_slice(rpath);
        } else {
            remove_dots(rpath, out);
        }
        push_query(reference, &r, out);
    } else {
        // T.scheme = Base.scheme.
        out.extend_from_slice(&base[bscheme.start..bscheme.end + 1]);
        if r.authority.is_some() {
            // T.authority = R.authority; T.path = remove_dot_segments(R.path); T.query = R.query.
            has_authority = push_authority(reference, &r, out);
            path_start = out.len();
            remove_dots(&reference[r.path.clone()], out);
            push_query(reference, &r, out);
        } else {
            // T.authority = Base.authority.
            has_authority = push_authority(base, &b, out);
            path_start = out.len();
            let rpath = &reference[r.path.clone()];
            if rpath.is_empty() {
                // T.path = Base.path; T.query = R.query if defined, else Base.query.
                out.extend_from_slice(&base[b.path.clone()]);
                if r.query.is_some() {
                    push_query(reference, &r, out);
                } else {
                    push_query(base, &b, out);
                }
            } else {
                if rpath[0] == b'/' {
                    // T.path = remove_dot_segments(R.path).
                    remove_dots(rpath, out);
                } else {
                    // Step 3: T.path = merge(Base.path, R.path) (§5.2.3), then step 4.
                    let bpath = &base[b.path.clone()];
                    if b.authority.is_some() && bpath.is_empty() {
                        out.push(b'/');
                    } else if let Some(slash) = memchr::memrchr(b'/', bpath) {
                        out.extend_from_slice(&bpath[..=slash]);
                    }
                    out.extend_from_slice(rpath);
                    decode_dot_segments_in_place(out, path_start);
                    remove_dot_segments_in_place(out, path_start);
                }
                push_query(reference, &r, out);
            }
        }
    }
    // T.fragment = R.fragment.
    if let Some(f) = r.fragment.clone() {
        out.push(b'#');
        out.extend_from_slice(&reference[f]);
    }
    // The safeguard of the module docs: no authority, path "//…" → "/.//…".
    if !has_authority && out[path_start..].starts_with(b"//") {
        out.splice(path_start..path_start, *b"/.");
    }
    Ok(())
}

/// Appends `//authority` of `s` if it has one (§5.3); tells whether it had.
fn push_authority(s: &[u8], c: &Components, out: &mut Vec<u8>) -> bool {
    match c.authority.clone() {
        Some(a) => {
            out.extend_from_slice(&s[a.start - 2..a.end]);
            true
        }
        None => false,
    }
}

/// Appends `?query` of `s` if it has one (§5.3).
fn push_query(s: &[u8], c: &Components, out: &mut Vec<u8>) {
    if let Some(q) = c.query.clone() {
        out.extend_from_slice(&s[q.start - 1..q.end]);
    }
}

/// Appends `path` with its dot segments removed (RFC 3986 §5.2.4, `remove_dot_segments`).
///
/// Works on any path: absolute (`/a/./b`), rootless or relative (`a/../b`: note that §5.2.4
/// turns `a/../b` into `/b`, as the RFC's algorithm does). Only complete segments `.` and `..`
/// are dot segments; `%2E` is not (decode it first, as percent-encoding normalization does).
///
/// ```
/// let mut out = Vec::new();
/// iribulk::grammar::resolve::remove_dot_segments(b"/a/b/c/./../../g", &mut out);
/// assert_eq!(out, b"/a/g");
/// ```
pub fn remove_dot_segments(path: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(path);
    remove_dot_segments_in_place(out, start);
}

/// [`remove_dot_segments`] of `path` with its `%2E` segments read as dot segments (module
/// docs, step 4; [`decode_dot_segments_in_place`]).
fn remove_dots(path: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(path);
    decode_dot_segments_in_place(out, start);
    remove_dot_segments_in_place(out, start);
}

/// False only if resolving `path` pops none of its segments: it has no dot segment, literal
/// ([`has_dot_segment`]) or spelled with `%2E` (no `%` at all; module docs, step 4).
#[inline]
pub(crate) fn may_pop(path: &[u8]) -> bool {
    has_dot_segment(path) || memchr::memchr(b'%', path).is_some()
}

/// True if `path` has a complete segment `.` or `..` (a dot segment, RFC 3986 §3.3).
#[inline]
pub(crate) fn has_dot_segment(path: &[u8]) -> bool {
    // Fast exit: no '.' at all (most paths of real crawls).
    let mut from = 0;
    while let Some(p) = memchr::memchr(b'.', &path[from..]) {
        let i = from + p;
        let seg_start = i == 0 || path[i - 1] == b'/';
        if seg_start {
            let rest = &path[i + 1..];
            let end = |k: usize| k == rest.len() || rest[k] == b'/';
            if end(0) || (rest[0] == b'.' && end(1)) {
                return true;
            }
        }
        from = i + 1;
    }
    false
}

/// How many dots the path segment `seg` is once its `%2E`s are decoded, where that is one or
/// two and at least one was encoded (`%2E`, `.%2e`, `%2E%2E`, any hex case); `None` for any
/// other segment. RFC 3986 §2.3 and §6.2.2.2: `%2E` is the unreserved `.`, so such a segment
/// is equivalent to the dot segment `.` or `..` (§3.3), and the WHATWG URL Standard's path
/// parser reads it as one ("single-dot" and "double-dot URL path segment").
pub(crate) fn encoded_dot_segment(seg: &[u8]) -> Option<usize> {
    if seg.len() < 3 || seg.len() > 6 {
        return None;
    }
    let mut dots = 0;
    let mut i = 0;
    while i < seg.len() {
        if seg[i] == b'.' {
            i += 1;
        } else if seg[i..].len() >= 3
            && seg[i] == b'%'
            && seg[i + 1] == b'2'
            && seg[i + 2] | 0x20 == b'e'
        {
            i += 3;
        } else {
            return None;
        }
        dots += 1;
    }
    (dots <= 2).then_some(dots)
}

/// Writes each segment of `buf[start..]` that [`encoded_dot_segment`] finds as the dot
/// segment it stands for (`.` or `..`), so that `remove_dot_segments` (§5.2.4) removes it as
/// it removes the literal one. Without this, a literal `..` after `%2E%2E` removed the
/// encoded segment, not the segment before it: `/a/%2E%2E/..` became `/a/`, which a browser
/// and RFC 3986 §6.2.2 both read as `/` (QA sweep Z, `normalize --path` without
/// `--percent`). Nothing is done (and nothing allocated) for a path without `%`.
pub(crate) fn decode_dot_segments_in_place(buf: &mut Vec<u8>, start: usize) {
    if memchr::memchr(b'%', &buf[start..]).is_none() {
        return;
    }
    let mut w = start;
    let mut i = start;
    let n = buf.len();
    loop {
        let end = memchr::memchr(b'/', &buf[i..n]).map_or(n, |p| i + p);
        let len = match encoded_dot_segment(&buf[i..end]) {
            Some(d) => {
                buf[w..w + d].fill(b'.');
                d
            }
            None => {
                buf.copy_within(i..end, w);
                end - i
            }
        };
        w += len;
        if end == n {
            break;
        }
        buf[w] = b'/';
        w += 1;
        i = end + 1;
    }
    buf.truncate(w);
}

/// §5.2.4 on `buf[start..]`, in place. The output buffer of the RFC is `buf[start..w]` and the
/// input buffer is `buf[i..]`: every step writes at most what it consumed, so `w <= i` always
/// holds and the output never overwrites input not yet read.
///
/// Steps, as numbered in §5.2.4 ("replace the prefix with `/`" is done by consuming one byte
/// less, leaving the `/` as the start of the input):
/// * A. `../` or `./` prefix: removed.
/// * B. `/./` prefix: replaced by `/`; input `/.`: replaced by `/`.
/// * C. `/../` prefix or input `/..`: replaced by `/`, and the last segment of the output
///   removed with its preceding `/` (if any).
/// * D. input `.` or `..`: removed.
/// * E. the first segment (with its leading `/`, if any) moved to the output.
pub(crate) fn remove_dot_segments_in_place(buf: &mut Vec<u8>, start: usize) {
    if !has_dot_segment(&buf[start..]) {
        return;
    }
    let n = buf.len();
    let mut i = start; // input
    let mut w = start; // end of output
    while i < n {
        let input = &buf[i..n];
        if input.starts_with(b"../") {
            i += 3; // A
        } else if input.starts_with(b"./") {
            i += 2; // A
        } else if input.starts_with(b"/./") {
            i += 2; // B: "/./" -> "/"
        } else if input == b"/." {
            // B: "/." -> "/", which step E then moves to the output.
            buf[w] = b'/';
            w += 1;
            i = n;
        } else if input.starts_with(b"/../") {
            i += 3; // C: "/../" -> "/"
            w = pop_segment(buf, start, w);
        } else if input == b"/.." {
            // C: "/.." -> "/", pop, then E moves the "/".
            w = pop_segment(buf, start, w);
            buf[w] = b'/';
            w += 1;
            i = n;
        } else if input == b"." || input == b".." {
            i = n; // D
        } else {
            // E: up to (not including) the next '/' after the first byte.
            let from = if input[0] == b'/' { 1 } else { 0 };
            let len = memchr::memchr(b'/', &input[from..]).map_or(input.len(), |p| from + p);
            buf.copy_within(i..i + len, w);
            w += len;
            i += len;
        }
    }
    buf.truncate(w);
}

/// The ranges of `path`, the path of a reference (RFC 3986 §3.3), that §5.2.4's
/// `remove_dot_segments` drops when the reference is resolved: each segment of the
/// reference's own that a later `..` removes. Whatever base the path is merged with (§5.2.3),
/// a `..` removes the reference's own segments first (the last one output), and one that
/// finds none of them removes a segment of the base's, which is not in `path`. The dot
/// segments themselves are not in the ranges (nothing in them is lost). Appended to `out`
/// in the order they are removed.
///
/// ```text
/// a/b/../c/%zz/../..   ->   b, then %zz, then a
/// ```
pub(crate) fn popped_segments(path: &[u8], out: &mut Vec<Range<usize>>) {
    if !may_pop(path) {
        return;
    }
    // The reference's own segments now in the output, as a stack.
    let mut kept: Vec<Range<usize>> = Vec::new();
    let mut start = 0;
    // An absolute path's leading '/' starts no segment of its own.
    if path.first() == Some(&b'/') {
        start = 1;
    }
    loop {
        let end = memchr::memchr(b'/', &path[start..]).map_or(path.len(), |p| start + p);
        // A segment spelled with `%2E` is a dot segment too (module docs, step 4).
        match (&path[start..end], encoded_dot_segment(&path[start..end])) {
            (b".", _) | (_, Some(1)) => {}
            (b"..", _) | (_, Some(2)) => out.extend(kept.pop()),
            _ => kept.push(start..end),
        }
        if end == path.len() {
            return;
        }
        start = end + 1;
    }
}

/// Removes the last segment and its preceding `/` (if any) from the output `buf[start..w]`.
#[inline]
fn pop_segment(buf: &[u8], start: usize, w: usize) -> usize {
    memchr::memrchr(b'/', &buf[start..w]).map_or(start, |p| start + p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`decode_dot_segments_in_place`] against its definition, on every path of up to five
    /// pieces over `/ . %2E %2e %2 x %`: each segment that is `.` or `..` once its `%2E` and
    /// `%2e` are decoded, and held at least one, is written as those dots; every other byte
    /// is kept, and a prefix before `start` is never touched.
    #[test]
    fn encoded_dot_segments_are_decoded_and_nothing_else() {
        let pieces: [&str; 7] = ["/", ".", "%2E", "%2e", "%2", "x", "%"];
        let mut paths = vec![String::new()];
        for _ in 0..5 {
            let next: Vec<String> = paths
                .iter()
                .flat_map(|p| pieces.iter().map(move |q| format!("{p}{q}")))
                .collect();
            paths.extend(next);
        }
        paths.sort();
        paths.dedup();
        let mut changed = 0;
        for p in &paths {
            let want: Vec<String> = p
                .split('/')
                .map(|seg| {
                    let d = seg.replace("%2E", ".").replace("%2e", ".");
                    if seg.contains('%') && (d == "." || d == "..") {
                        d
                    } else {
                        seg.to_string()
                    }
                })
                .collect();
            let want = want.join("/");
            let mut buf = b"k%2E/".to_vec();
            buf.extend_from_slice(p.as_bytes());
            decode_dot_segments_in_place(&mut buf, 5);
            assert_eq!(&buf[..5], b"k%2E/", "{p:?}");
            assert_eq!(String::from_utf8(buf[5..].to_vec()).unwrap(), want, "{p:?}");
            changed += usize::from(want != *p);
        }
        assert!(changed > 1000, "{changed} of {}", paths.len());
    }

    fn rds(p: &str) -> String {
        let mut out = b"keep".to_vec();
        remove_dot_segments(p.as_bytes(), &mut out);
        assert!(out.starts_with(b"keep"), "the prefix of out is kept");
        String::from_utf8(out[4..].to_vec()).unwrap()
    }

    fn res(b: &str, r: &str) -> Result<String, LineError> {
        let mut out = Vec::new();
        resolve_into(b.as_bytes(), r.as_bytes(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    /// `popped_segments` against the resolver's §5.2.4 itself: every path of up to six
    /// segments made of a named segment, an empty one, `.`, `..` and their `%2E` spellings,
    /// absolute and relative, merged under a base directory as §5.2.3 does; a named segment
    /// of the reference is popped exactly when it is not in `remove_dots`' output.
    #[test]
    fn popped_segments_are_what_remove_dot_segments_drops() {
        let kinds: [&str; 6] = ["n", "", ".", "..", "%2E", "%2e%2E"];
        for len in 1..=6u32 {
            for code in 0..6usize.pow(len) {
                for absolute in [false, true] {
                    let mut segs = Vec::new();
                    let mut c = code;
                    for i in 0..len {
                        let k = kinds[c % 6];
                        c /= 6;
                        segs.push(if k == "n" {
                            format!("s{i}")
                        } else {
                            k.to_string()
                        });
                    }
                    let path = format!("{}{}", if absolute { "/" } else { "" }, segs.join("/"));
                    let merged = if absolute {
                        path.clone()
                    } else {
                        format!("/b1/b2/{path}")
                    };
                    let mut out = Vec::new();
                    remove_dots(merged.as_bytes(), &mut out);
                    let out = String::from_utf8(out).unwrap();
                    let survives = |name: &str| out.split('/').any(|x| x == name);
                    let mut popped = Vec::new();
                    popped_segments(path.as_bytes(), &mut popped);
                    let popped: Vec<&str> = popped
                        .iter()
                        .map(|r| &path[r.clone()])
                        .filter(|x| !x.is_empty())
                        .collect();
                    for name in segs.iter().filter(|x| x.starts_with('s')) {
                        assert_eq!(
                            popped.contains(&name.as_str()),
                            !survives(name),
                            "{path:?} -> {out:?}, popped {popped:?}"
                        );
                    }
                    assert!(popped.iter().all(|x| x.starts_with('s')), "{path:?}");
                }
            }
        }
    }

    #[test]
    fn dot_segments() {
        assert_eq!(rds("/a/b/c/./../../g"), "/a/g"); // §5.2.4
        assert_eq!(rds("mid/content=5/../6"), "mid/6"); // §5.2.4
        assert_eq!(rds(""), "");
        assert_eq!(rds("/"), "/");
        assert_eq!(rds("."), "");
        assert_eq!(rds(".."), "");
        assert_eq!(rds("/."), "/");
        assert_eq!(rds("/.."), "/");
        assert_eq!(rds("/a/.."), "/");
        assert_eq!(rds("/a/."), "/a/");
        assert_eq!(rds("a/../b"), "/b");
        assert_eq!(rds("/a/.b/..c/b.."), "/a/.b/..c/b..");
        assert_eq!(rds("/../../x/"), "/x/");
        assert_eq!(rds("/a//../b"), "/a/b");
        assert_eq!(rds("/é/./ü/../ö"), "/é/ö");
    }

    #[test]
    fn has_dot_segment_exact() {
        for (p, want) in [
            ("", false),
            ("/a.b/c.", false),
            ("/..a", false),
            (".", true),
            ("..", true),
            ("/./", true),
            ("/a/..", true),
            ("a/./b", true),
            ("/...", false),
        ] {
            assert_eq!(has_dot_segment(p.as_bytes()), want, "{p}");
        }
    }

    #[test]
    fn resolution_basics() {
        assert_eq!(res("http://a/b/c/d;p?q", "g").unwrap(), "http://a/b/c/g");
        assert_eq!(res("http://a", "g").unwrap(), "http://a/g"); // §5.2.3 first rule
        assert_eq!(res("foo:a", "b").unwrap(), "foo:b"); // no '/' in the base path
        assert_eq!(res("http://a/b#f", "").unwrap(), "http://a/b");
        assert_eq!(res("http://a/b?q#f", "#g").unwrap(), "http://a/b?q#g");
        assert_eq!(res("http://a/b?q", "?").unwrap(), "http://a/b?");
        assert_eq!(res("http://a/b", "#").unwrap(), "http://a/b#");
        assert_eq!(res("foo:/a/b", "..//x").unwrap(), "foo:/.//x");
        assert_eq!(res("foo:/a/b", "//h/./x").unwrap(), "foo://h/x");
        // Same special scheme: §5.2.2 non-strict (issue 16); another scheme stays strict.
        assert_eq!(res("http://a/b", "HTTP:/../g").unwrap(), "http://a/g");
        assert_eq!(res("foo://a/b", "FOO:/../g").unwrap(), "FOO:/g");
    }

    #[test]
    fn resolution_errors() {
        let e = res("/no/scheme", "g").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadScheme, 0));
        let e = res("1http://a/", "g").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadScheme);
        let e = res("http://a/", ":g").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadScheme, 0));
        let e = res("http://a/", "a_b:g").unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::BadScheme, 1));
        let mut out = b"x".to_vec();
        assert!(resolve_into(b"nope", b"g", &mut out).is_err());
        assert_eq!(out, b"x", "nothing appended on error");
    }
}
