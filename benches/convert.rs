//! Criterion benchmarks of iribulk's converters.
//!
//! * `to_uri_line/*`: the per-line converter [`ToUri::convert_into`], one line per iteration
//!   (the reported time is ns/line): plain ASCII URLs, non-ASCII in the path (many scripts),
//!   IDN hosts with a warm host cache (a handful of hosts repeated), and IDN hosts that always
//!   miss the cache (tens of thousands of distinct hosts, more than the cache holds).
//! * `convert_chunk/*`: the whole fast path, [`Worker::convert_chunk`], on 1 MiB of lines with
//!   0 %, 10 % and 100 % non-ASCII lines.
//! * `classify/*`: the block classifier kernels ([`Classifier::scan_into`]) over 1 MiB, for every
//!   implementation this CPU has.
//!
//! ASCII lines come from `../shared/datasets/cc10k_bases.txt` (real Common Crawl page URLs)
//! when it is present, otherwise from a deterministic generator; non-ASCII lines are always
//! generated (deterministic). Run with `cargo bench --bench convert`.

// The operations of `iribulk bench`, from the command's own module (not library API).
#[allow(dead_code, unused_imports)]
#[path = "../src/bin/iribulk/bench.rs"]
mod bench;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use iribulk::engine::{ChunkOut, EngineOptions, Worker, TO_URI_FLAGGED};
use iribulk::simd::{Classifier, Impl};
use iribulk::{ToUri, ToUriOptions};
use std::hint::black_box;
use std::time::Duration;

const REAL_ASCII: &str = "../shared/datasets/cc10k_bases.txt";
const BUF_BYTES: usize = 1 << 20;

/// xorshift64*: small, deterministic, good enough to pick words.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T: ?Sized>(&mut self, xs: &[&'a T]) -> &'a T {
        xs[self.below(xs.len())]
    }
    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
}

const HOSTS: &[&str] = &[
    "www.example.com",
    "news.example.org",
    "shop.example.net",
    "blog.example.io",
    "cdn.static.example.com",
    "forum.example.co.uk",
    "docs.example.dev",
    "m.example.de",
    "api.example.com:8080",
    "wiki.example.org",
];
const WORDS: &[&str] = &[
    "articles",
    "2024",
    "index.html",
    "products",
    "category",
    "search",
    "user",
    "images",
    "photo-1234.jpg",
    "how-to-build-a-fast-parser",
    "en",
    "about",
    "p",
    "view.php",
    "static",
    "v2",
    "a%20b",
];
const KEYS: &[&str] = &["id", "q", "lang", "page", "ref", "utm_source", "sort"];
const VALUES: &[&str] = &["42", "en", "rust", "newest", "home", "2", "a+b", "x_y-z"];
/// Non-ASCII words, many scripts (Latin with diacritics to emoji).
const NA_WORDS: &[&str] = &[
    "café",
    "straße",
    "résumé",
    "Ελληνικά",
    "москва",
    "Київ",
    "العربية",
    "עברית",
    "हिन्दी",
    "ภาษาไทย",
    "中文页面",
    "日本語のページ",
    "한국어",
    "😀",
    "👩\u{200D}💻",
    "🇫🇷",
    "naïve-çà",
    "Ωμέγα",
];
/// IDN hosts (valid under UTS #46 with the STD3 rules).
const IDN_HOSTS: &[&str] = &[
    "bücher.example",
    "münchen.de",
    "пример.рф",
    "例え.jp",
    "δοκιμή.gr",
    "사례.kr",
    "müller.ch",
    "ドメイン名例.jp",
];
/// Labels for distinct IDN hosts (a number is appended).
const IDN_LABELS: &[&str] = &[
    "bücher",
    "пример",
    "例え",
    "δοκιμή",
    "사례",
    "müller",
    "ドメイン",
];

fn push_path(rng: &mut Rng, s: &mut String, na_segment: Option<&str>) {
    let segs = 1 + rng.below(4);
    let na_at = rng.below(segs);
    for i in 0..segs {
        s.push('/');
        match na_segment {
            Some(w) if i == na_at => s.push_str(w),
            _ => s.push_str(rng.pick(WORDS)),
        }
    }
}

fn push_query(rng: &mut Rng, s: &mut String, na_value: Option<&str>) {
    let pairs = 1 + rng.below(3);
    for i in 0..pairs {
        s.push(if i == 0 { '?' } else { '&' });
        s.push_str(rng.pick(KEYS));
        s.push('=');
        match na_value {
            Some(w) if i == 0 => s.push_str(w),
            _ => s.push_str(rng.pick(VALUES)),
        }
    }
}

fn ascii_line(rng: &mut Rng) -> String {
    let mut s = String::from(if rng.chance(0.8) {
        "https://"
    } else {
        "http://"
    });
    s.push_str(rng.pick(HOSTS));
    push_path(rng, &mut s, None);
    if rng.chance(0.4) {
        push_query(rng, &mut s, None);
    }
    s
}

/// A line with non-ASCII in the path; `k` chooses the word, so that consecutive calls cycle
/// through every script.
fn na_path_line(rng: &mut Rng, k: usize) -> String {
    let mut s = String::from("https://");
    s.push_str(rng.pick(HOSTS));
    push_path(rng, &mut s, Some(NA_WORDS[k % NA_WORDS.len()]));
    if rng.chance(0.4) {
        push_query(rng, &mut s, None);
    }
    s
}

fn idn_line(rng: &mut Rng, host: &str) -> String {
    let mut s = String::from("https://");
    s.push_str(host);
    push_path(rng, &mut s, None);
    if rng.chance(0.4) {
        push_query(rng, &mut s, None);
    }
    s
}

/// A non-ASCII line as in a crawl: 50 % path, 20 % query, 10 % fragment, 20 % IDN host.
fn na_line(rng: &mut Rng) -> String {
    let w = rng.pick(NA_WORDS);
    match rng.below(10) {
        0..=4 => {
            let k = rng.below(NA_WORDS.len());
            na_path_line(rng, k)
        }
        5 | 6 => {
            let mut s = String::from("https://");
            s.push_str(rng.pick(HOSTS));
            push_path(rng, &mut s, None);
            push_query(rng, &mut s, Some(w));
            s
        }
        7 => {
            let mut s = ascii_line(rng);
            s.push('#');
            s.push_str(w);
            s
        }
        _ => {
            let h = rng.pick(IDN_HOSTS);
            idn_line(rng, h)
        }
    }
}

/// ASCII lines: the real data set when present, else generated.
fn ascii_pool() -> Vec<String> {
    match std::fs::read_to_string(REAL_ASCII) {
        Ok(text) => {
            let v: Vec<String> = text
                .lines()
                .filter(|l| !l.is_empty() && l.is_ascii())
                .map(str::to_owned)
                .collect();
            if !v.is_empty() {
                eprintln!("note: ASCII lines from {REAL_ASCII} ({} lines)", v.len());
                return v;
            }
            eprintln!("note: {REAL_ASCII} has no ASCII lines; using generated lines");
        }
        Err(e) => eprintln!("note: {REAL_ASCII} absent ({e}); using generated ASCII lines"),
    }
    let mut rng = Rng(0xA5C1_1000);
    (0..10_000).map(|_| ascii_line(&mut rng)).collect()
}

/// About 1 MiB of whole lines, a share `na` of them non-ASCII.
fn buffer(pool: &[String], na: f64, seed: u64) -> Vec<u8> {
    let mut rng = Rng(seed);
    let mut buf = Vec::with_capacity(BUF_BYTES + 4096);
    let mut i = 0;
    loop {
        let line = if rng.chance(na) {
            na_line(&mut rng)
        } else {
            i += 1;
            pool[i % pool.len()].clone()
        };
        if buf.len() + line.len() + 1 > BUF_BYTES {
            break;
        }
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
    }
    buf
}

/// Converts every line once and checks that none fails (a bench of errors would measure the
/// wrong thing).
fn check_lines(what: &str, lines: &[String]) {
    let mut conv = ToUri::new(ToUriOptions::default());
    let mut out = Vec::new();
    let bad = lines
        .iter()
        .filter(|l| conv.convert_into(l.as_bytes(), &mut out).is_err())
        .count();
    if bad > 0 {
        eprintln!("note: {what}: {bad} of {} lines are errors", lines.len());
    }
}

fn per_line(c: &mut Criterion) {
    let opts = ToUriOptions::default();
    let ascii: Vec<String> = ascii_pool().into_iter().take(4096).collect();
    let mut rng = Rng(0x5EED_0001);
    let na_path: Vec<String> = (0..4096).map(|k| na_path_line(&mut rng, k)).collect();
    let idn: Vec<String> = (0..4096)
        .map(|k| idn_line(&mut rng, IDN_HOSTS[k % IDN_HOSTS.len()]))
        .collect();
    // More distinct hosts than the cache holds (4096, cleared when full): every line misses.
    let idn_unique: Vec<String> = (0..40_000)
        .map(|k| {
            let host = format!("{}{k}.example", IDN_LABELS[k % IDN_LABELS.len()]);
            idn_line(&mut rng, &host)
        })
        .collect();
    check_lines("ascii", &ascii);
    check_lines("non_ascii_path", &na_path);
    check_lines("idn_host", &idn);
    check_lines("idn_host_uncached", &idn_unique);

    let mut g = c.benchmark_group("to_uri_line");
    g.throughput(Throughput::Elements(1));
    for (name, lines) in [
        ("ascii", &ascii),
        ("non_ascii_path", &na_path),
        ("idn_host_cached", &idn),
        ("idn_host_uncached", &idn_unique),
    ] {
        let mut conv = ToUri::new(opts);
        let mut out = Vec::with_capacity(4096);
        let mut i = 0;
        g.bench_function(name, |b| {
            b.iter(|| {
                let line = &lines[i];
                i = if i + 1 == lines.len() { 0 } else { i + 1 };
                out.clear();
                let r = conv.convert_into(black_box(line.as_bytes()), &mut out);
                black_box((&r, out.len()));
            })
        });
        if name.starts_with("idn") {
            let (hits, misses) = conv.cache_stats();
            eprintln!("note: {name}: host cache hits {hits}, misses {misses}");
        }
    }
    // A fresh converter (empty cache) for every line, its drop not timed.
    let line = &idn[0];
    let mut out = Vec::with_capacity(4096);
    g.bench_function("idn_host_fresh_converter", |b| {
        b.iter_batched_ref(
            || ToUri::new(opts),
            |conv| {
                out.clear();
                let r = conv.convert_into(black_box(line.as_bytes()), &mut out);
                black_box((&r, out.len()));
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn chunks(c: &mut Criterion) {
    let pool = ascii_pool();
    let mut g = c.benchmark_group("convert_chunk");
    for (name, na) in [("na0", 0.0), ("na10", 0.10), ("na100", 1.0)] {
        let buf = buffer(&pool, na, 0xC0FF_EE00 + (na * 100.0) as u64);
        let mut worker = Worker::new(EngineOptions::default());
        let mut res = ChunkOut::default();
        worker.convert_chunk(&buf, &mut res);
        let s = &res.stats;
        eprintln!(
            "note: {name}: {} bytes, {} lines, {} converted, {} errors",
            buf.len(),
            s.lines,
            s.converted,
            s.error_lines
        );
        g.throughput(Throughput::Bytes(buf.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                worker.convert_chunk(black_box(&buf), &mut res);
                black_box(res.pieces.len());
            })
        });
    }
    g.finish();
}

fn classify(c: &mut Criterion) {
    let pool = ascii_pool();
    let buf = buffer(&pool, 0.10, 0xC1A5_51F7);
    let mut g = c.benchmark_group("classify");
    g.throughput(Throughput::Bytes(buf.len() as u64));
    for imp in Impl::ALL {
        let Some(cl) = Classifier::with_impl(TO_URI_FLAGGED, imp) else {
            eprintln!("note: classifier {imp:?} not available on this CPU");
            continue;
        };
        let mut out = Vec::with_capacity(buf.len() / 64 + 1);
        g.bench_function(format!("{imp:?}").to_lowercase(), |b| {
            b.iter(|| {
                out.clear();
                cl.scan_into(black_box(&buf), &mut out);
                black_box(out.len());
            })
        });
    }
    g.finish();
}

/// Each normalization rung, the ladder and the conversions of `iribulk bench`, on the shipped
/// sample, as that command times them: the engine's worker over the whole sample, one thread.
fn rungs(c: &mut Criterion) {
    let data = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/sample.txt"))
        .expect("datasets/sample.txt");
    let lines = bench::lines(&data).len();
    let mut g = c.benchmark_group("normalize_line");
    g.throughput(Throughput::Elements(lines as u64));
    for (name, opts) in bench::operations() {
        let mut w = iribulk::engine::Worker::new(opts);
        let mut res = iribulk::engine::ChunkOut::default();
        let mut out = Vec::with_capacity(1 << 16);
        g.bench_function(
            name.replace([' ', ':', '(', ')', '§', '+', '='], "_"),
            |b| {
                b.iter(|| {
                    out.clear();
                    w.convert_chunk(black_box(&data), &mut res);
                    res.write_to(&data, &mut out).expect("writing to a Vec");
                    std::hint::black_box(&out);
                })
            },
        );
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(20)
}

criterion_group! {
    name = benches;
    config = config();
    targets = per_line, chunks, classify, rungs
}
criterion_main!(benches);
