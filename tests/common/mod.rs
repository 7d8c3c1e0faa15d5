//! Shared helpers of the integration tests: escapes of the data files, the location of
//! `../shared`, option strings, TSV and report readers, and a deterministic generator.
#![allow(dead_code)]

use iribulk::host::idna2003;
use iribulk::{HostMode, InvalidUtf8, ToUriOptions};
use proptest::prelude::*;
use std::path::PathBuf;

/// Unescapes `\\`, `\t`, `\n`, `\r`, `\xHH` (one raw byte) and `\u{H..}` (one scalar).
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b[i + 1] {
            b'\\' => {
                out.push(b'\\');
                i += 2;
            }
            b't' => {
                out.push(b'\t');
                i += 2;
            }
            b'n' => {
                out.push(b'\n');
                i += 2;
            }
            b'r' => {
                out.push(b'\r');
                i += 2;
            }
            b'x' => {
                let h = u8::from_str_radix(&s[i + 2..i + 4], 16).expect("\\xHH");
                out.push(h);
                i += 4;
            }
            b'u' => {
                let end = s[i..].find('}').expect("\\u{..}") + i;
                let cp = u32::from_str_radix(&s[i + 3..end], 16).expect("hex scalar");
                let c = char::from_u32(cp).expect("a scalar value");
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                i = end + 1;
            }
            _ => {
                out.push(b'\\');
                i += 1;
            }
        }
    }
    out
}

/// `../shared` beside the project, or None with a printed reason. Under `CI=true` a missing
/// folder is a failure, never a silent skip.
pub fn shared_dir() -> Option<PathBuf> {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared"));
    if p.is_dir() {
        return Some(p);
    }
    skip(&format!(
        "{} not found (the shared specs, vectors and datasets)",
        p.display()
    ));
    None
}

/// The data sets `shared/datasets/*.txt`, sorted (at least the nine the tests were written
/// against).
pub fn dataset_files(shared: &std::path::Path) -> Vec<PathBuf> {
    files_with_extension(&shared.join("datasets"), "txt")
}

/// The files `dir/*.ext`, sorted; at least nine (the data sets and `tests/data/*.tsv` the
/// tests were written against).
pub fn files_with_extension(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    files
}

/// The host of `line` as the converters see it (`integrity::host_of`), and its percent-decoded
/// form when it has `%HH` (3987bis §3.4.2, what `host::to_ascii` passes on); empty when the
/// line has no host or the host is not UTF-8.
pub fn hosts_of(line: &[u8]) -> Vec<String> {
    let Some(h) =
        iribulk::convert::integrity::host_of(line).and_then(|h| std::str::from_utf8(h).ok())
    else {
        return Vec::new();
    };
    let mut v = vec![h.to_string()];
    if let Some(d) = h
        .contains('%')
        .then(|| iribulk::host::decode_host_percent(h))
        .flatten()
    {
        v.push(d);
    }
    v
}

/// Says why a test did not run, where `cargo test` shows it: written straight to the process's
/// stderr, which the test harness does not capture (it captures only `print!`/`eprintln!`).
/// Under `CI=true` a skip is a failure instead (a panic naming the reason).
pub fn skip(why: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{why}; CI=true requires it");
    }
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "SKIPPED: {why}");
}

/// Parses an options column: `-` or comma-separated keys.
pub fn parse_options(s: &str) -> ToUriOptions {
    let mut o = ToUriOptions::default();
    if s == "-" {
        return o;
    }
    // The IDNA2003 flags go with `host=idna2003`, in whatever order the keys come.
    let mut flags = idna2003::Flags::CONVERT;
    for kv in s.split(',') {
        o = match kv {
            "host=auto" => o.host(HostMode::Auto),
            "host=uts46" => o.host(HostMode::Uts46),
            "host=idna2003" => o.host(HostMode::IDNA2003),
            "host=percent" => o.host(HostMode::Percent),
            "strict" => o.strict(true),
            "leiri" => o.leiri(true),
            "trim" => o.trim(true),
            "utf8=percent" => o.invalid_utf8(InvalidUtf8::Percent),
            "fallback" => o.host_fallback_percent(true),
            // `repair=brackets+hash`: the `--repair` list, `+` for `,`.
            kv if kv.starts_with("repair=") => {
                let r = iribulk::config::Repairs::parse(&kv[7..].replace('+', ","))
                    .unwrap_or_else(|e| panic!("{e}"));
                o.repair(r)
            }
            "no-std3" => {
                flags.use_std3_ascii_rules = false;
                o
            }
            "no-unassigned" => {
                flags.allow_unassigned = false;
                o
            }
            other => panic!("unknown option {other}"),
        };
    }
    if let HostMode::Idna2003(_) = o.host {
        o = o.host(HostMode::Idna2003(flags));
    }
    o
}

/// Reads a TSV data file: skips `#` comments and the header; yields the columns of each row.
pub fn read_tsv(path: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// Pieces of IRIs: delimiters, ASCII, percent-encodings good and bad, many scripts, IDN
/// hosts, and every kind of trouble.
pub const ATOMS: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "foo:",
    "mailto:",
    "//",
    "/",
    "/",
    "/",
    "?",
    "#",
    ":",
    "@",
    "[",
    "]",
    "[::1]",
    "[v1.x]",
    "[fe80::1%25e]",
    ":80",
    ":8x",
    "%",
    "%4",
    "%41",
    "%C3%A9",
    "%FF",
    "a",
    "b",
    "Z",
    "0",
    "9",
    "-",
    ".",
    "_",
    "~",
    "!",
    "'",
    "=",
    "&",
    "+",
    " ",
    "\"",
    "<",
    "\\",
    "^",
    "{",
    "|",
    "é",
    "ß",
    "ς",
    "日本",
    "пример",
    "مثال",
    "עברית",
    "ไทย",
    "한국",
    "\u{1F600}",
    "\u{200D}",
    "\u{202E}",
    "\u{2066}",
    "\u{E000}",
    "\u{F0000}",
    "\u{FDD0}",
    "\u{FFFE}",
    "\u{E0001}",
    "\u{0085}",
    "\u{0001}",
    "\u{007F}",
    "\t",
    "\u{3002}",
    "\u{FF0E}",
    "xn--",
    "xn--bcher-kva",
    "bücher.de",
    "例え.テスト",
    "WWW.Bücher.DE",
    "a_b.ü",
    "\u{00AD}",
];

pub fn iri_strategy() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop::sample::select(ATOMS).prop_map(|s| s.as_bytes().to_vec());
    let byte = prop_oneof![
        Just(vec![0xFFu8]),
        Just(vec![0xC0, 0xAF]),
        Just(vec![0xE2, 0x82])
    ];
    prop::collection::vec(prop_oneof![30 => atom, 1 => byte], 0..24).prop_map(|v| v.concat())
}

/// Runs the `iribulk` binary of this build with `args`, feeding `input` on stdin from another
/// thread (so a large input cannot deadlock against a full stdout pipe).
pub fn run_stdin<S: AsRef<std::ffi::OsStr>>(args: &[S], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_iribulk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feed = input.to_vec();
    let t = std::thread::spawn(move || {
        let _ = stdin.write_all(&feed);
    });
    let o = child.wait_with_output().unwrap();
    t.join().unwrap();
    o
}

/// A small deterministic generator (xorshift64*), so the generated inputs never change.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }

    /// One element of `v`.
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len())]
    }
}

/// The rows of an error report in TSV (`--errors`): the header skipped, each row split at tabs
/// (file, line, column, code, message, input).
pub fn report_rows(report: &str) -> Vec<Vec<&str>> {
    report
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect()
}

/// The engine's fast chunk path (`Worker::convert_chunk`: classifier, clean lines passed
/// through, the modes' shortcuts) against its twin (`convert_chunk_naive`: every line through
/// the Guard and the converter) on `data` with `opts`, for each classifier implementation in
/// `impls`: the same output bytes, issues, counts and stop; lines in = written + skipped +
/// not reached. `what` names the case in a failure.
pub fn assert_engine_twin(
    what: &str,
    data: &[u8],
    opts: iribulk::engine::EngineOptions,
    impls: &[iribulk::simd::Impl],
) {
    use iribulk::engine::{ChunkOut, Worker};
    use iribulk::simd::Classifier;
    let mut want = ChunkOut::default();
    Worker::new(opts).convert_chunk_naive(data, &mut want);
    let want_bytes = want.render(data);
    let s = &want.stats;
    assert_eq!(s.lines, s.written + s.skipped + s.not_reached, "{what}");
    if !want.failed {
        assert_eq!(s.not_reached, 0, "{what}");
    }
    for &i in impls {
        let Some(c) = Classifier::with_impl(Worker::flagged_set(&opts), i) else {
            continue;
        };
        let mut got = ChunkOut::default();
        Worker::with_classifier(opts, c).convert_chunk(data, &mut got);
        let ctx = format!("{what} ({i:?}, {:?})", opts.mode);
        if got.render(data) != want_bytes {
            let (g, w) = (got.render(data), &want_bytes);
            let at = g.iter().zip(w).take_while(|(a, b)| a == b).count();
            let line_start = w[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            panic!(
                "{ctx}: output differs at byte {at}, in the line starting {:?}",
                String::from_utf8_lossy(&w[line_start..(line_start + 120).min(w.len())])
            );
        }
        assert_eq!(got.issues, want.issues, "{ctx}: issues");
        assert_eq!(got.stats, want.stats, "{ctx}: counts");
        assert_eq!(got.failed, want.failed, "{ctx}: stop");
    }
}

/// Writes a synthetic data set to `out` with `scripts/gen-dataset` (20,000 lines, the share of
/// non-ASCII and of bad lines, the seed). False, with `skip`'s message, when python3 cannot be
/// started (a failure under CI); a failing script panics.
pub fn gen_dataset(out: &std::path::Path, non_ascii: &str, bad: &str, seed: &str) -> bool {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/gen-dataset");
    let status = std::process::Command::new("python3")
        .arg(&script)
        .args(["--lines", "20000", "--non-ascii", non_ascii, "--bad", bad])
        .args(["--seed", seed, "--quiet", "--out"])
        .arg(out)
        .status();
    match status {
        Ok(s) if s.success() => true,
        Ok(s) => panic!("{} exited with {s}", script.display()),
        Err(e) => {
            skip(&format!("python3 for scripts/gen-dataset: {e}"));
            false
        }
    }
}

/// [`HeadTwins::same_on_dataset`] on every data set for each option set of `sets` (the first
/// on every line, the others on a stride), `three` making the converters of one set and
/// `also` giving a second line to compare for a line. The lines compared, or `None` when the
/// data sets are missing (skipped as [`shared_dir`] says).
pub fn heads_on_datasets<C: iribulk::Converter, O: Clone>(
    sets: &[O],
    mut three: impl FnMut(O) -> HeadTwins<C>,
    mut also: impl FnMut(&[u8]) -> Option<Vec<u8>>,
) -> Option<usize> {
    let shared = shared_dir()?;
    let mut lines = 0;
    for f in dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (k, o) in sets.iter().cloned().enumerate() {
            lines += three(o).same_on_dataset(&bytes, k, &mut also);
        }
    }
    Some(lines)
}

/// One converter three ways, for the tests of `Converter::convert_with_head` (issue 11:
/// to-uri and to-iri take the Guard's `LineHead` instead of splitting the head again): with
/// the head, without it (`convert_into`, its twin), and the naive twin; `ctx` (the options)
/// is named in a failure.
pub struct HeadTwins<C> {
    pub with_head: C,
    pub into: C,
    pub naive: C,
    pub ctx: String,
}

impl<C: iribulk::Converter> HeadTwins<C> {
    /// Converts `line` the three ways and asserts the same bytes, outcome and error.
    pub fn same(&mut self, line: &[u8]) {
        let (mut x, mut y, mut z) = (b"keep".to_vec(), b"keep".to_vec(), b"keep".to_vec());
        let head = iribulk::convert::integrity::LineHead::of(line);
        let rx = self.with_head.convert_with_head(line, &head, &mut x);
        let ry = self.into.convert_into(line, &mut y);
        let rz = self.naive.convert_into(line, &mut z);
        let show = || format!("{:?} {}", String::from_utf8_lossy(line), self.ctx);
        assert_eq!((&rx, &x), (&ry, &y), "with head / into: {}", show());
        // With the Guard's crawl head, where the line has one (issue 11).
        if let Some(crawl) = iribulk::convert::integrity::LineHead::crawl(line) {
            let mut w = b"keep".to_vec();
            let rw = self.with_head.convert_with_head(line, &crawl, &mut w);
            assert_eq!((&rw, &w), (&ry, &y), "with crawl head / into: {}", show());
        }
        assert_eq!((&ry, &y), (&rz, &z), "into / naive: {}", show());
    }

    /// [`Self::same`] on each of `made`, then on lines with invalid UTF-8 in each place of
    /// the head (scheme, userinfo, host, path).
    pub fn same_on_made(&mut self, made: &[&str]) {
        for l in made {
            self.same(l.as_bytes());
        }
        for l in [
            &b"http://b\xFCcher.de/x"[..],
            b"http://u\xFF@h/x",
            b"ht\xFFtp://h/",
            b"http://h/\xC3",
        ] {
            self.same(l);
        }
    }

    /// [`Self::same`] on the lines of `data` (a data set): every line for the first option set
    /// (`k == 0`), every seventh for the others (starting at `k % 7`); `also` gives a second
    /// line to compare for a line (to-iri: its to-uri form). Returns the lines compared.
    pub fn same_on_dataset(
        &mut self,
        data: &[u8],
        k: usize,
        mut also: impl FnMut(&[u8]) -> Option<Vec<u8>>,
    ) -> usize {
        let stride = if k == 0 { 1 } else { 7 };
        let mut n = 0;
        for line in data.split(|&b| b == b'\n').skip(k % stride).step_by(stride) {
            self.same(line);
            if let Some(other) = also(line) {
                self.same(&other);
            }
            n += 1;
        }
        n
    }
}

/// Lines of a file, split at LF with a CR before it removed (the engine's line rule).
pub fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}
