//! Opt-in repairs (`--repair brackets,percent,hash`) of what RFC 3987 §3.1 says "MUST NOT be
//! converted": `[` `]` outside an IP literal, a `%` not followed by two hex digits, and a second
//! `#`. §3.1 allows percent-encoding them "as a preprocessing step to extract the actual IRI"
//! from formats that used earlier definitions of IRIs — crawled links are such a format — so
//! that is what this is: a pass over the line *before* the mode converts it, writing
//!
//! * `[` → `%5B` and `]` → `%5D` outside the IP literal of the authority (RFC 3986 §3.2.2: the
//!   host, when it starts with `[`, up to the first `]`), with [`Repairs::brackets`];
//! * a `%` that does not start `%HH` → `%25` (RFC 3986 §2.4: a data `%` is written `%25`),
//!   with [`Repairs::percent`];
//! * every `#` after the first → `%23` (RFC 3986 §3.5: the fragment is everything after the
//!   first `#` and holds no `#`), with [`Repairs::hash`].
//!
//! Nothing else changes; a line without such bytes is not copied. Each repair is counted as a
//! repair and reported as a warning ([`ErrorKind::RepairedBracket`],
//! [`ErrorKind::RepairedPercent`], [`ErrorKind::RepairedHash`]) at its byte in the line; the
//! offsets of whatever the mode reports on the repaired text are mapped back to the line
//! ([`Repairer::offset_in_line`]). `to-uri`, `leiri-to-iri` and `normalize` use it.

use crate::config::Repairs;
use crate::convert::{Converter, Outcome, Written};
use crate::error::{ErrorKind, LineError};
use crate::grammar::components;
use crate::grammar::pct::{is_pct_triplet, push_pct};

/// The repair pass, with its buffers (one per converter: no allocation per line once grown).
#[derive(Debug, Default, Clone)]
pub struct Repairer {
    /// The repaired line.
    buf: Vec<u8>,
    /// Offsets in the line of the bytes repaired, in order.
    at: Vec<usize>,
    /// The first repair: its kind.
    first: Option<ErrorKind>,
}

/// The IP literal of the authority `ar` of `line` (after the last `@`, from `[` to the first
/// `]`), as a range of `line`. RFC 3986 §3.2.1 has no `@` in the userinfo, so a line with two
/// is `extra-at` in the modes that validate it; `leiri-to-iri` passes it, and a browser reads
/// the host after the last `@` (WHATWG URL §4.4, authority state), so the literal is found
/// there (the first `@` encoded the brackets of `http://a@b@[::1]/`, a link to `[::1]` made
/// one no browser opens; found by a QA sweep).
fn ip_literal(line: &[u8], ar: std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let a = &line[ar.clone()];
    let h = memchr::memrchr(b'@', a).map_or(0, |p| p + 1);
    if a.get(h) != Some(&b'[') {
        return None;
    }
    let close = a[h..].iter().position(|&b| b == b']')?;
    Some(ar.start + h..ar.start + h + close + 1)
}

impl Repairer {
    /// Applies `r` to `line`. `None` when nothing is to be repaired (the line is used as it
    /// is); otherwise the repaired line.
    pub fn apply(&mut self, line: &[u8], r: Repairs) -> Option<&[u8]> {
        self.at.clear();
        self.first = None;
        if !r.any() || !line.iter().any(|b| matches!(b, b'%' | b'#' | b'[' | b']')) {
            return None;
        }
        // The IP literal of the authority ([`ip_literal`]: after the last `@`, from `[` to
        // the first `]`), and that of a `blob:` URL's inner URL
        // (its path): encoding the latter would lose the inner host a browser reads (W3C File
        // API §8.3; `blob:https://[::1]/u` became `blob:https://%5B::1%5D/u`, found by a QA
        // sweep). Its brackets stay, and the line is `bad-bracket` as without the repair:
        // RFC 3986 has no form of it that keeps the inner host.
        let c = components::split(line);
        let literal = c.authority.clone().and_then(|ar| ip_literal(line, ar));
        let inner_literal = c
            .scheme
            .filter(|s| line[s.clone()].eq_ignore_ascii_case(b"blob") && c.authority.is_none())
            .and_then(|_| {
                let p = c.path.start;
                let inner = &line[p..];
                let ar = components::split(inner).authority?;
                ip_literal(inner, ar).map(|r| r.start + p..r.end + p)
            });
        let in_literal = |i: usize| {
            literal.as_ref().is_some_and(|l| l.contains(&i))
                || inner_literal.as_ref().is_some_and(|l| l.contains(&i))
        };
        let first_hash = memchr::memchr(b'#', line);
        let mut run = 0;
        self.buf.clear();
        for (i, &b) in line.iter().enumerate() {
            let kind = match b {
                b'%' if r.percent && !is_pct_triplet(line, i) => ErrorKind::RepairedPercent,
                b'#' if r.hash && first_hash != Some(i) => ErrorKind::RepairedHash,
                b'[' | b']' if r.brackets && !in_literal(i) => ErrorKind::RepairedBracket,
                _ => continue,
            };
            self.buf.extend_from_slice(&line[run..i]);
            push_pct(&mut self.buf, b);
            run = i + 1;
            self.at.push(i);
            self.first.get_or_insert(kind);
        }
        if self.at.is_empty() {
            return None;
        }
        self.buf.extend_from_slice(&line[run..]);
        Some(&self.buf)
    }

    /// The number of repairs of the last [`Repairer::apply`].
    pub fn count(&self) -> u32 {
        self.at.len() as u32
    }

    /// The first repair of the last [`Repairer::apply`], as a warning at its byte in the line.
    pub fn first_warning(&self) -> Option<LineError> {
        Some(LineError::new(self.first?, *self.at.first()?))
    }

    /// The offset in the line of byte `off` of the repaired text (each repair wrote three
    /// bytes for one; an offset inside a `%HH` it wrote is the repaired byte's).
    pub fn offset_in_line(&self, off: usize) -> usize {
        let mut shift = 0;
        for &p in &self.at {
            if off < p + shift {
                break;
            }
            if off < p + shift + 3 {
                return p;
            }
            shift += 2;
        }
        off - shift
    }

    /// Folds the repairs of the last [`Repairer::apply`] into the result of converting the
    /// repaired text: offsets mapped back to the line, repairs and warnings counted, the first
    /// warning the earliest of both. The repaired line differs from the line: where the
    /// converter passed it through, it is appended to `out` here, and the outcome says
    /// [`Written::Wrote`].
    pub fn finish(
        &self,
        r: Result<Outcome, LineError>,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        match r {
            Ok(mut o) => {
                if o.written == Written::Passthrough {
                    out.extend_from_slice(&self.buf);
                }
                o.written = Written::Wrote;
                o.repairs += self.count();
                o.warnings += self.count();
                let mine = self.first_warning();
                o.first_warning = match o.first_warning {
                    Some(w) => {
                        let w = LineError::new(w.kind, self.offset_in_line(w.offset));
                        Some(match mine {
                            Some(m) if m.offset <= w.offset => m,
                            _ => w,
                        })
                    }
                    None => mine,
                };
                Ok(o)
            }
            Err(e) => Err(LineError::new(e.kind, self.offset_in_line(e.offset))),
        }
    }
}

/// A converter run on the repaired line (for the converters whose options do not carry
/// [`Repairs`]: [`crate::convert::leiri::LeiriToIri`] and
/// [`crate::convert::normalize::Normalizer`]; [`crate::ToUri`] reads
/// [`crate::ToUriOptions::repair`] itself). With [`Repairs::NONE`] it is the converter.
#[derive(Debug)]
pub struct Repairing<C> {
    inner: C,
    repairs: Repairs,
    rp: Repairer,
}

impl<C: Converter> Repairing<C> {
    /// `inner`, repairing `repairs` first.
    pub fn new(inner: C, repairs: Repairs) -> Self {
        Repairing {
            inner,
            repairs,
            rp: Repairer::default(),
        }
    }

    /// The converter.
    pub fn inner(&self) -> &C {
        &self.inner
    }

    /// The inner converter when no repair is asked for: then every line reaches it as it is.
    pub fn unrepaired(&self) -> Option<&C> {
        (!self.repairs.any()).then_some(&self.inner)
    }

    /// [`Repairing::unrepaired`], mutable.
    pub fn unrepaired_mut(&mut self) -> Option<&mut C> {
        (!self.repairs.any()).then_some(&mut self.inner)
    }
}

impl<C: Converter> Converter for Repairing<C> {
    fn convert_into(&mut self, line: &[u8], out: &mut Vec<u8>) -> Result<Outcome, LineError> {
        if !self.repairs.any() {
            return self.inner.convert_into(line, out);
        }
        match self.rp.apply(line, self.repairs) {
            None => self.inner.convert_into(line, out),
            Some(fixed) => {
                let r = self.inner.convert_into(fixed, out);
                self.rp.finish(r, out)
            }
        }
    }

    /// The head is of `line`: it goes to the inner converter only when no repair is asked
    /// for (a repaired line is another line).
    fn convert_with_head(
        &mut self,
        line: &[u8],
        head: &crate::convert::integrity::LineHead,
        out: &mut Vec<u8>,
    ) -> Result<Outcome, LineError> {
        if !self.repairs.any() {
            return self.inner.convert_with_head(line, head, out);
        }
        self.convert_into(line, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repair(line: &str, r: Repairs) -> Option<(String, Vec<usize>)> {
        let mut rp = Repairer::default();
        let out = rp.apply(line.as_bytes(), r)?.to_vec();
        Some((String::from_utf8(out).unwrap(), rp.at.clone()))
    }

    #[test]
    fn each_repair_alone() {
        let b = Repairs {
            brackets: true,
            ..Repairs::NONE
        };
        assert_eq!(
            repair("http://[::1]/a[]?b[0]=1#[x]", b),
            Some((
                "http://[::1]/a%5B%5D?b%5B0%5D=1#%5Bx%5D".into(),
                vec![14, 15, 18, 20, 24, 26]
            ))
        );
        assert_eq!(
            repair("http://u[1]@[v1.x]:80/", b).map(|x| x.0),
            Some("http://u%5B1%5D@[v1.x]:80/".into())
        );
        // The host follows the last `@`, as a browser reads it (a QA sweep: `[::1]` after a
        // second `@` was encoded, in leiri-to-iri, which passes the second `@`).
        assert_eq!(repair("http://a@b@[::1]/", b), None);
        assert_eq!(
            repair("http://a@[::1]@b/", b).map(|x| x.0),
            Some("http://a@%5B::1%5D@b/".into())
        );
        let p = Repairs {
            percent: true,
            ..Repairs::NONE
        };
        assert_eq!(
            repair("http://a/100%?x=%zz%4", p).map(|x| x.0),
            Some("http://a/100%25?x=%25zz%254".into())
        );
        assert_eq!(repair("http://a/%41%e9", p), None, "valid %HH untouched");
        let h = Repairs {
            hash: true,
            ..Repairs::NONE
        };
        assert_eq!(
            repair("http://a/#b#c#", h).map(|x| x.0),
            Some("http://a/#b%23c%23".into())
        );
        assert_eq!(repair("http://a/#b[%", h), None, "only what is asked for");
        assert_eq!(repair("http://a/b#c", Repairs::ALL), None);
    }

    #[test]
    fn offsets_map_back_to_the_line() {
        let mut rp = Repairer::default();
        let line = b"/a[b]c";
        let fixed = rp.apply(line, Repairs::ALL).unwrap().to_vec();
        assert_eq!(fixed, b"/a%5Bb%5Dc");
        for (off, want) in [
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 3),
            (6, 4),
            (8, 4),
            (9, 5),
        ] {
            assert_eq!(rp.offset_in_line(off), want, "{off}");
        }
        assert_eq!(
            rp.first_warning(),
            Some(LineError::new(ErrorKind::RepairedBracket, 2))
        );
        let mut out = b"keep".to_vec();
        let o = rp.finish(Ok(Outcome::default()), &mut out).unwrap();
        assert_eq!((o.repairs, o.warnings, o.written), (2, 2, Written::Wrote));
        assert_eq!(
            out, b"keep/a%5Bb%5Dc",
            "a passed-through repaired line is written"
        );
        let e = rp
            .finish(Err(LineError::new(ErrorKind::BadPort, 9)), &mut out)
            .unwrap_err();
        assert_eq!(e.offset, 5);
    }
}
