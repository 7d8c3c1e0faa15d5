//! The per-converter host cache, for both directions of IDNA: ToASCII (RFC 3987 §3.1,
//! 3987bis §3.4.2; [`HostCache::to_ascii`]) and ToUnicode with the caller's display decision
//! (3987bis §4.2 step 7; [`HostCache::to_unicode`]).
//!
//! Crawl dumps repeat hosts heavily and IDNA costs hundreds of nanoseconds a host (the
//! ToUnicode → ToASCII round trip of to-iri twice that), so each converter (one per worker
//! thread) keeps one bounded cache:
//!
//! - **Bounded memory.** Each direction holds at most [`HostCache::CAPACITY`] entries and is
//!   cleared when full (crawl dumps have a small working set of hosts per chunk; a clear is
//!   cheaper and simpler than LRU bookkeeping). Hosts longer than [`HostCache::MAX_KEY`] bytes
//!   are converted but never stored, so hostile kilobyte-long hosts cannot fill it.
//! - **One cheap hash per lookup.** A host and its IDNA version are hashed once (foldhash with
//!   a per-cache random seed, so crafted hosts cannot aim at one bucket; SipHash, the
//!   standard library's, cost about 290 instructions a host, a tenth of an IDN line's
//!   conversion where hosts rarely repeat, issue 11); the map is keyed by that 64-bit hash
//!   and each
//!   entry keeps its host and IDNA version, compared on a hit. A miss stores under the hash
//!   already computed, so a long key is never hashed twice. Two hosts with the same hash
//!   evict each other (a miss, never a wrong answer).
//! - **Stored from the second sighting.** A miss is stored only when an earlier miss had the
//!   same hash: each direction keeps the hashes of its recent misses in a Bloom filter (a
//!   doorkeeper: two bits a hash in 65,536, emptied after 4,096 hashes). Where hosts rarely
//!   repeat (`intl_cldr.txt`: 15,762 distinct hosts in 16,845 host lines) storing every miss
//!   cost an allocation and a copy of host and answer, and a clear of the map every 4,096
//!   hosts, for hits that never came; a host that repeats is stored at its second lookup
//!   instead of its first. The filter forgets nothing until it is emptied (a host seen twice
//!   within 4,096 misses is stored); a false positive (under 1.4 %) stores a host at its
//!   first sighting, as before.
//! - **Transparent.** A cached answer is the answer of the uncached functions
//!   ([`super::to_ascii`], [`super::to_unicode`] and the caller's decision): the test
//!   `tests/host_cache.rs` compares cached and uncached converters on every dataset line.
//!   [`HostCache::disabled`] is the uncached twin.

use super::Idna;
use crate::error::IdnaReason;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

/// A [`Hasher`] for keys that are already hashes: the map's key is the `u64` from the
/// cache's [`foldhash::fast::SeedableRandomState`], used as it is.
#[derive(Default)]
struct PreHashed(u64);

impl Hasher for PreHashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used (the key is a `u64`); fold anything else so the hasher
        // stays correct if that changes.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Bits of each direction's doorkeeper, a Bloom filter of the hashes of recent misses (two
/// bits a hash), a power of two: 8 KiB.
const SEEN_BITS: usize = 1 << 16;
/// Hashes the doorkeeper takes before it is emptied: its false-positive rate then reaches
/// (1 − e^(−2 × 4,096 / 65,536))² ≈ 1.4 %.
const SEEN_MAX: usize = 4096;

/// One cached host: the key (to tell hash collisions apart) and the answer.
#[derive(Debug)]
struct Slot<V> {
    host: Box<str>,
    idna: Idna,
    value: V,
}

/// A bounded map from (host, IDNA version) to `V`, keyed by a hash computed once.
#[derive(Debug)]
struct Memo<V> {
    map: HashMap<u64, Slot<V>, BuildHasherDefault<PreHashed>>,
    capacity: usize,
    /// The doorkeeper: [`SEEN_BITS`] bits, two set for each miss's hash (empty in the
    /// disabled twin).
    seen: Box<[u64]>,
    /// Hashes the doorkeeper took since it was last emptied.
    seen_n: usize,
}

impl<V> Memo<V> {
    fn new(capacity: usize) -> Self {
        Memo {
            map: HashMap::default(),
            capacity,
            seen: vec![0; if capacity > 0 { SEEN_BITS / 64 } else { 0 }].into_boxed_slice(),
            seen_n: 0,
        }
    }

    /// The cached answer for `host` (whose hash is `h`), if any.
    #[inline]
    fn get(&self, h: u64, host: &str, idna: Idna) -> Option<&V> {
        self.map
            .get(&h)
            .filter(|s| s.idna == idna && &*s.host == host)
            .map(|s| &s.value)
    }

    /// Whether [`Memo::put`] would store an answer for `host` (not for long hosts, nor in the
    /// disabled twin).
    #[inline]
    fn stores(&self, host: &str) -> bool {
        host.len() <= HostCache::MAX_KEY && self.capacity > 0
    }

    /// Whether to store the answer of a miss of `host` (hash `h`): a host that
    /// [`Memo::stores`] allows, seen at an earlier miss (both of its bits are set in the
    /// doorkeeper `seen`); otherwise its bits are set for next time, the filter emptied first
    /// when it holds [`SEEN_MAX`] hashes. Only what is stored changes, never an answer.
    #[inline]
    fn admit(&mut self, h: u64, host: &str) -> bool {
        if !self.stores(host) {
            return false;
        }
        // Two bit positions from disjoint bits of the hash.
        let (a, b) = (h as usize % SEEN_BITS, (h >> 32) as usize % SEEN_BITS);
        let (ma, mb) = (1u64 << (a % 64), 1u64 << (b % 64));
        if self.seen[a / 64] & ma != 0 && self.seen[b / 64] & mb != 0 {
            return true;
        }
        if self.seen_n == SEEN_MAX {
            self.seen.fill(0);
            self.seen_n = 0;
        }
        self.seen[a / 64] |= ma;
        self.seen[b / 64] |= mb;
        self.seen_n += 1;
        false
    }

    /// The answer of a miss of `host` (hash `h`), `value()`, stored ([`Memo::put`]) when
    /// the doorkeeper admits it ([`Memo::admit`]); `value` is not called otherwise.
    #[inline]
    fn offer(&mut self, h: u64, host: &str, idna: Idna, value: impl FnOnce() -> V) {
        if self.admit(h, host) {
            self.put(h, host, idna, value());
        }
    }

    /// Stores `value` for `host` under its hash `h` (clearing the map first when full).
    fn put(&mut self, h: u64, host: &str, idna: Idna, value: V) {
        if !self.stores(host) {
            return;
        }
        if self.map.len() >= self.capacity && !self.map.contains_key(&h) {
            self.map.clear();
        }
        let slot = Slot {
            host: host.into(),
            idna,
            value,
        };
        self.map.insert(h, slot);
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// [`HostCache`]'s last ToASCII miss: its key, result and ASCII form together (the answer
/// lives with its key, so no other miss can change it); its buffers are reused by the next
/// miss.
#[derive(Debug)]
struct LastMiss {
    h: u64,
    idna: Idna,
    host: String,
    result: Result<(), IdnaReason>,
    /// The ASCII form when `result` is `Ok`.
    ascii: String,
}

/// The bounded cache of converted hosts of one converter (one per worker thread), for both
/// directions; see the [module documentation](self).
#[derive(Debug)]
pub struct HostCache {
    /// foldhash's fast hasher, seeded at random per cache (foldhash rather than the standard
    /// library's SipHash: a well-kept crate, several times fewer instructions on short keys;
    /// a collision costs a miss, never a wrong answer, see [`Memo::get`]).
    hasher: foldhash::fast::SeedableRandomState,
    ascii: Memo<Result<Box<str>, IdnaReason>>,
    unicode: Memo<Option<Box<str>>>,
    /// The last ToASCII miss, whether stored or not: the same host asked again at once (check converts a line's host, then checks it) is answered from
    /// here, without an allocation, while the doorkeeper keeps it out of the map.
    last: Option<LastMiss>,
    hits: u64,
    misses: u64,
}

impl Default for HostCache {
    fn default() -> Self {
        HostCache::with_capacity(Self::CAPACITY)
    }
}

impl HostCache {
    /// Maximum number of cached hosts in each direction.
    pub const CAPACITY: usize = 4096;
    /// Hosts longer than this (bytes) are converted but not cached, so the cache holds at
    /// most about `2 × CAPACITY × (MAX_KEY + its answer)` bytes (a few MiB).
    pub const MAX_KEY: usize = 255;

    /// A cache holding at most `capacity` hosts in each direction.
    pub fn with_capacity(capacity: usize) -> Self {
        HostCache {
            hasher: foldhash::fast::SeedableRandomState::random(),
            ascii: Memo::new(capacity),
            unicode: Memo::new(capacity),
            last: None,
            hits: 0,
            misses: 0,
        }
    }

    /// A cache whose hash seed is fixed, so that which hosts share a doorkeeper entry (and
    /// so the hit counts) is the same in every run: for the unit tests that count hits.
    #[cfg(test)]
    fn fixed(capacity: usize) -> Self {
        HostCache {
            hasher: foldhash::fast::SeedableRandomState::fixed(),
            ..HostCache::with_capacity(capacity)
        }
    }

    /// The uncached twin: a cache that stores nothing, so every call converts (for the tests
    /// that compare cached and uncached output).
    pub fn disabled() -> Self {
        HostCache::with_capacity(0)
    }

    #[inline]
    fn hash(&self, host: &str, idna: Idna) -> u64 {
        self.hasher.hash_one((idna, host))
    }

    /// [`super::to_ascii`] of `host` with `idna` (RFC 3987 §3.1, 3987bis §3.4.2), cached,
    /// appending the ASCII form to `out`; on error `out` is left as it was.
    pub fn to_ascii(
        &mut self,
        host: &str,
        idna: Idna,
        out: &mut Vec<u8>,
    ) -> Result<(), IdnaReason> {
        let h = self.hash(host, idna);
        if let Some(r) = self.ascii.get(h, host, idna) {
            self.hits += 1;
            return r
                .as_deref()
                .map(|s| out.extend_from_slice(s.as_bytes()))
                .map_err(|e| *e);
        }
        if let Some(l) = &self.last {
            if l.h == h && l.idna == idna && l.host == host {
                self.hits += 1;
                if l.result.is_ok() {
                    out.extend_from_slice(l.ascii.as_bytes());
                }
                return l.result;
            }
        }
        self.misses += 1;
        // Into the last miss's buffers (it is forgotten: this miss replaces it), then one
        // allocation of the exact size for the cache (a fresh `String` grew by reallocations
        // on nearly every miss: ~270 instructions an IDN host, issue 11). Until eb51cde the
        // ASCII form was a scratch buffer beside the memory, and a miss on a host too long to
        // keep overwrote it and left the memory in place: the next lookup of the last host
        // was answered with the long host's name.
        let (mut key, mut s) = self
            .last
            .take()
            .map_or_else(Default::default, |l| (l.host, l.ascii));
        s.clear();
        let r = super::to_ascii(host, idna, &mut s);
        if r.is_ok() {
            out.extend_from_slice(s.as_bytes());
        }
        self.ascii
            .offer(h, host, idna, || r.map(|()| Box::from(s.as_str())));
        if !self.ascii.stores(host) {
            // The disabled twin remembers nothing; a long host is not kept either.
            return r;
        }
        key.clear();
        key.push_str(host);
        self.last = Some(LastMiss {
            h,
            idna,
            host: key,
            result: r,
            ascii: s,
        });
        r
    }

    /// The display form of an ASCII host (3987bis §4.2 step 7), cached: [`super::to_unicode`]
    /// of `host` with `idna`, then `present(host, unicode)`, the caller's decision (display
    /// safety, the ToASCII round trip), which returns the form to show or `None` to keep
    /// `host`. Appends the form to show to `out` and returns true; returns false, with `out`
    /// untouched, when the caller keeps `host` (also when ToUnicode has nothing to decode or
    /// fails).
    ///
    /// The cache remembers the decision, not only ToUnicode's result: one converter must
    /// always pass the same `present` (each converter owns its cache, so it does).
    pub fn to_unicode(
        &mut self,
        host: &str,
        idna: Idna,
        present: impl FnOnce(&str, String) -> Option<String>,
        out: &mut Vec<u8>,
    ) -> bool {
        self.to_unicode_traced(host, idna, |h, u, _| present(h, u), out)
    }

    /// [`HostCache::to_unicode`] whose `present` also learns whether the UTS #46 fast path
    /// answered ([`super::to_unicode_traced`]: then the ToASCII round trip is known to hold).
    pub fn to_unicode_traced(
        &mut self,
        host: &str,
        idna: Idna,
        present: impl FnOnce(&str, String, bool) -> Option<String>,
        out: &mut Vec<u8>,
    ) -> bool {
        // Most hosts have no ACE label: answer them before hashing (what `to_unicode` would
        // answer, `None`), so they cost no cache slot.
        if !super::contains_ace_prefix(host.as_bytes()) || host.len() > super::MAX_RAW_HOST {
            return false;
        }
        let h = self.hash(host, idna);
        if let Some(shown) = self.unicode.get(h, host, idna) {
            self.hits += 1;
            return shown
                .as_deref()
                .map(|s| out.extend_from_slice(s.as_bytes()))
                .is_some();
        }
        self.misses += 1;
        let shown = super::to_unicode_traced(host, idna).and_then(|(u, f)| present(host, u, f));
        if let Some(s) = &shown {
            out.extend_from_slice(s.as_bytes());
        }
        let written = shown.is_some();
        self.unicode
            .offer(h, host, idna, || shown.map(String::into_boxed_str));
        written
    }

    /// (hits, misses) so far, both directions together.
    pub fn stats(&self) -> (u64, u64) {
        (self.hits, self.misses)
    }

    /// Number of cached hosts (ToASCII, display form).
    pub fn len(&self) -> (usize, usize) {
        (self.ascii.len(), self.unicode.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::idna2003;

    #[test]
    fn cache_gives_same_answers() {
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        for _ in 0..3 {
            let mut v = Vec::new();
            c.to_ascii("bücher.de", Idna::Uts46, &mut v).unwrap();
            assert_eq!(v, b"xn--bcher-kva.de");
            assert!(c.to_ascii("-x.bücher.de", Idna::Uts46, &mut v).is_err());
            assert_eq!(v, b"xn--bcher-kva.de", "an error appends nothing");
        }
        // Stored at the second lookup (the doorkeeper), answered from the third.
        assert_eq!(c.stats(), (2, 4));
    }

    #[test]
    fn a_host_is_stored_from_its_second_sighting() {
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        let mut v = Vec::new();
        // Distinct hosts, each once: converted, (nearly) nothing stored.
        for i in 0..1000 {
            c.to_ascii(&format!("h{i}.bücher.de"), Idna::Uts46, &mut v)
                .unwrap();
        }
        // (A false positive of the doorkeeper stores a host at its first sighting: well
        // under 1 % of them while it holds fewer than 1,000 hashes.)
        assert_eq!(c.stats(), (0, 1000));
        assert!(c.len().0 <= 10, "{:?}", c.len());
        // Two hosts asked in turn: each stored at its second lookup, a hit at its third.
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        for host in ["a.bücher.de", "b.bücher.de"].repeat(3) {
            v.clear();
            c.to_ascii(host, Idna::Uts46, &mut v).unwrap();
            assert_eq!(v, format!("{}.xn--bcher-kva.de", &host[..1]).as_bytes());
        }
        assert_eq!((c.stats(), c.len()), ((2, 4), (2, 0)));
        // The last miss is answered again without being stored, error or not.
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        for host in ["h1.bücher.de", "h2.bücher.de", "-x.bücher.de"] {
            for _ in 0..2 {
                v.clear();
                let r = c.to_ascii(host, Idna::Uts46, &mut v);
                let mut direct = String::new();
                assert_eq!(r, crate::host::to_ascii(host, Idna::Uts46, &mut direct));
                assert_eq!(v, if r.is_ok() { direct.as_bytes() } else { b"" });
            }
        }
        assert_eq!((c.stats(), c.len()), ((3, 3), (0, 0)));
        // The doorkeeper forgets nothing until it holds SEEN_MAX hashes: a hash seen before
        // them all is admitted; then it is emptied, and the same hash is new again.
        let mut m: Memo<u32> = Memo::new(16);
        let hash = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        assert!(!m.admit(hash(0), "a.example"));
        let mut i = 1;
        while m.seen_n < SEEN_MAX {
            m.admit(hash(i), "b.example"); // a false positive takes no place
            i += 1;
        }
        assert!(m.admit(hash(0), "a.example"));
        assert!(!m.admit(hash(1 << 20), "c.example"), "emptied, then set");
        assert_eq!(m.seen_n, 1);
        assert!(!m.admit(hash(0), "a.example"), "forgotten when emptied");
        assert!(m.admit(hash(0), "a.example"));
        // The disabled twin and long hosts are never admitted.
        let mut d: Memo<u32> = Memo::new(0);
        assert!(!d.admit(1, "a.example") && !d.admit(1, "a.example"));
        let long = "x".repeat(HostCache::MAX_KEY + 1);
        assert!(!m.admit(9, &long) && !m.admit(9, &long));
    }

    #[test]
    fn idna_version_is_part_of_the_key() {
        // IDNA2003 keeps the case of ASCII labels (RFC 3490 §4.1), UTS #46 maps it.
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        let i3 = Idna::Idna2003(idna2003::Flags::CONVERT);
        for _ in 0..3 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            c.to_ascii("WWW.bücher.de", Idna::Uts46, &mut a).unwrap();
            c.to_ascii("WWW.bücher.de", i3, &mut b).unwrap();
            assert_eq!(a, b"www.xn--bcher-kva.de");
            assert_eq!(b, b"WWW.xn--bcher-kva.de");
        }
        assert_eq!(c.stats(), (2, 4));
    }

    #[test]
    fn to_unicode_remembers_the_decision() {
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        let mut calls = 0;
        for _ in 0..3 {
            let mut v = Vec::new();
            let shown = c.to_unicode(
                "xn--bcher-kva.de",
                Idna::Uts46,
                |h, u| {
                    calls += 1;
                    assert_eq!((h, u.as_str()), ("xn--bcher-kva.de", "bücher.de"));
                    Some(u)
                },
                &mut v,
            );
            assert!(shown);
            assert_eq!(v, "bücher.de".as_bytes());
            // A refused display form is remembered too, and nothing is written.
            let kept = c.to_unicode("xn--p1ai", Idna::Uts46, |_, _| None, &mut v);
            assert!(!kept);
            assert_eq!(v, "bücher.de".as_bytes());
        }
        assert_eq!(
            calls, 2,
            "present runs until the host is stored, at its second lookup"
        );
        assert_eq!(c.stats(), (2, 4));
        assert_eq!(c.len(), (0, 2));
        // Nothing to decode: `present` is not asked.
        let mut v = Vec::new();
        assert!(!c.to_unicode("example.org", Idna::Uts46, |_, u| Some(u), &mut v));
        assert!(v.is_empty());
    }

    #[test]
    fn memory_is_bounded() {
        let mut c = HostCache::fixed(8);
        let mut v = Vec::new();
        // Two rounds, so that the second stores each host (the doorkeeper).
        for round in 0..2 {
            for i in 0..100 {
                v.clear();
                let host = format!("h{i}.bücher.de");
                c.to_ascii(&host, Idna::Uts46, &mut v).unwrap();
                assert_eq!(v, format!("h{i}.xn--bcher-kva.de").as_bytes());
                assert!(c.len().0 <= 8, "{:?}", c.len());
                assert_eq!(c.len().0 > 0, round > 0, "{:?}", c.len());
            }
        }
        // Long hosts are converted, never stored.
        let long = format!("{}de", "日日日日日日日日日日.".repeat(9));
        assert!(long.len() > HostCache::MAX_KEY);
        let mut c = HostCache::fixed(HostCache::CAPACITY);
        v.clear();
        c.to_ascii(&long, Idna::Uts46, &mut v).unwrap();
        v.clear();
        c.to_ascii(&long, Idna::Uts46, &mut v).unwrap();
        let mut direct = String::new();
        crate::host::to_ascii(&long, Idna::Uts46, &mut direct).unwrap();
        assert_eq!(v, direct.as_bytes());
        assert_eq!(c.len(), (0, 0));
        // The disabled twin stores nothing and answers the same.
        let mut d = HostCache::disabled();
        for _ in 0..2 {
            let mut w = Vec::new();
            d.to_ascii("bücher.de", Idna::Uts46, &mut w).unwrap();
            assert_eq!(w, b"xn--bcher-kva.de");
        }
        assert_eq!((d.stats(), d.len()), ((0, 2), (0, 0)));
    }

    #[test]
    fn hash_collisions_evict_never_answer_wrong() {
        // Two hosts forced under one hash: the second replaces the first; each lookup
        // compares the stored host, so neither gets the other's answer.
        let mut m: Memo<u32> = Memo::new(16);
        m.put(7, "a.example", Idna::Uts46, 1);
        assert_eq!(m.get(7, "a.example", Idna::Uts46), Some(&1));
        assert_eq!(m.get(7, "b.example", Idna::Uts46), None);
        m.put(7, "b.example", Idna::Uts46, 2);
        assert_eq!(m.get(7, "a.example", Idna::Uts46), None);
        assert_eq!(m.get(7, "b.example", Idna::Uts46), Some(&2));
        let i3 = Idna::Idna2003(idna2003::Flags::CONVERT);
        assert_eq!(m.get(7, "b.example", i3), None);
    }

    /// A host answered from the last-miss memory gets its own ToASCII, whatever was looked up
    /// in between: here a host too long to keep (over `MAX_KEY` bytes of UTF-8, yet a valid
    /// name of 174 ASCII bytes), then an invalid one, then the first host again. 9055f57
    /// answered the third lookup with the long host's ToASCII (the shared scratch buffer it
    /// had overwritten): `http://bücher.de/` became a link to another host.
    #[test]
    fn the_last_miss_answers_with_its_own_name() {
        let long = vec!["ü".repeat(26); 5].join(".");
        assert!(long.len() > HostCache::MAX_KEY);
        let mut direct = String::new();
        crate::host::to_ascii(&long, Idna::Uts46, &mut direct).unwrap();
        let too_long = vec!["ü".repeat(26); 9].join(".");
        for between in [&long, &too_long, &"-x.bücher.de".to_string()] {
            let mut c = HostCache::fixed(HostCache::CAPACITY);
            let mut v = Vec::new();
            c.to_ascii("bücher.de", Idna::Uts46, &mut v).unwrap();
            assert_eq!(v, b"xn--bcher-kva.de");
            v.clear();
            let r = c.to_ascii(between, Idna::Uts46, &mut v);
            if between == &long {
                assert_eq!((r, &v[..]), (Ok(()), direct.as_bytes()));
            } else {
                assert!(r.is_err() && v.is_empty(), "{between}");
            }
            v.clear();
            c.to_ascii("bücher.de", Idna::Uts46, &mut v).unwrap();
            assert_eq!(v, b"xn--bcher-kva.de", "after {between}");
        }
    }

    /// Random sequences of lookups from a small pool (hosts that repeat, a host over
    /// `MAX_KEY` bytes, invalid hosts, both directions' IDNA versions), through a small cache
    /// and through the disabled twin: every answer equals the uncached conversion.
    #[test]
    fn any_sequence_of_lookups_answers_as_uncached() {
        let pool = [
            "bücher.de".to_string(),
            "xn--bcher-kva.de".to_string(),
            "пример.рф".to_string(),
            "例え.jp".to_string(),
            vec!["ü".repeat(26); 5].join("."),
            vec!["é".repeat(30); 5].join("."),
            vec!["ü".repeat(26); 9].join("."),
            "-x.bücher.de".to_string(),
            "a..b".to_string(),
            "example.com".to_string(),
        ];
        let idnas = [Idna::Uts46, Idna::Idna2003(idna2003::Flags::CONVERT)];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for capacity in [0, 2, HostCache::CAPACITY] {
            let mut c = HostCache::with_capacity(capacity);
            for step in 0..4000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let host = &pool[(x % pool.len() as u64) as usize];
                let idna = idnas[(x >> 32) as usize % 2];
                let mut got = b"prefix:".to_vec();
                let r = c.to_ascii(host, idna, &mut got);
                let mut want = String::new();
                let w = crate::host::to_ascii(host, idna, &mut want);
                assert_eq!(r, w, "step {step}, {host}, capacity {capacity}");
                let want = if w.is_ok() {
                    format!("prefix:{want}")
                } else {
                    "prefix:".into()
                };
                assert_eq!(
                    got,
                    want.as_bytes(),
                    "step {step}, {host}, capacity {capacity}"
                );
            }
        }
    }
}
