//! Host integrity (issue 16, contract item 17), judged by the `url` crate (the WHATWG URL
//! Standard, what browsers do): for `http https ws wss ftp`, `file` with a host and the inner
//! URL of `blob:`, every line written without an error reads with the same scheme, host, port
//! and userinfo as its input (with a base: both joined onto it, `Url::join`), and a line the
//! parser refuses never comes out as a URL it accepts with a host.
//!
//! Inputs: the named data sets of `../shared/datasets`, the inputs of the spec example tables
//! in `tests/data`, and mutations of seed IRIs (seeded xorshift64*) that insert delimiters,
//! look-alikes of delimiters, joiners, deviation characters, ignorables, spaces, TAB, CR and
//! IPv4 forms into and around the authority. Every line goes through every mode and host mode
//! of [`integrity::configs`], the way the engine runs it.
//!
//! The same lines and configs also run through the string helpers of the crate root
//! (`iribulk::iri_to_uri_with`, `to_iri_with`, `check_with`, `leiri_to_iri`, `normalize_with`;
//! `iribulk::resolve` first in the resolving configs), the library API: the rule is judged on
//! what they return (tallied as `api <mode>: cause`), and each must agree with the engine
//! (the same output, or an error where the engine reports one; `idna2003-differs`, a warning
//! in the engine, is the helpers' error since they return no warnings).
//!
//! The test tallies the violations by `mode: cause`, prints the table with three examples per
//! class, and asserts the exact tally against [`KNOWN_VIOLATIONS`], which is empty since issue
//! 16's decisions are wired into every mode: any violation fails the test.
//!
//! Size: `IRIBULK_MUTATIONS` (mutated lines, each through every config; default
//! [`DEFAULT_MUTATIONS`]) and `IRIBULK_DATASET_STRIDE` (every n-th data-set line; default
//! [`DEFAULT_STRIDE`]). The exact tally is asserted at the defaults; with other sizes the test
//! prints the table and asserts that no class outside [`KNOWN_VIOLATIONS`] appears. For the
//! issue's ≥ 10⁶ runs: `IRIBULK_MUTATIONS=67000 cargo test --release --test host_integrity
//! host_integrity_oracle -- --nocapture` (≈ 73,000 lines × 15 configs ≈ 1.09 × 10⁶ runs); add
//! `IRIBULK_DATASET_STRIDE=1` for every data-set line (≈ 5 × 10⁶ runs).

mod common;

#[path = "../fuzz/src/integrity.rs"]
#[allow(dead_code)]
mod integrity;

use integrity::{cause, configs, Runner, Violation};
use iribulk::config::ToUriOptions;
use iribulk::convert::integrity::{Guard, GuardOptions};
use iribulk::convert::Converter;
use iribulk::engine::{ChunkOut, Mode};
use iribulk::error::LineError;
use iribulk::{CheckOptions, LeiriToIri, NormalizeOptions, ToIriOptions};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

/// Mutated lines at the default size (each runs through every config).
const DEFAULT_MUTATIONS: usize = 8000;
/// Every n-th line of each data set at the default size.
const DEFAULT_STRIDE: usize = 60;

/// The data sets, by name (a file added to `../shared/datasets` later does not change the
/// tally).
const DATASETS: &[&str] = &[
    "cc10k_bases.txt",
    "cc10k_relative.txt",
    "cc10k_resolved.txt",
    "idna_v2_hosts.txt",
    "intl_cldr.txt",
    "isaacs_files.txt",
    "kasztp.txt",
    "node_files.txt",
    "real_files_and_shortener.txt",
    "wpt_urltestdata_inputs.txt",
];

/// The spec example tables of `tests/data` (their `input` column).
const EXAMPLE_TABLES: &[&str] = &[
    "to_uri_examples.tsv",
    "to_iri_examples.tsv",
    "normalize_examples.tsv",
    "check_examples.tsv",
    "hostile.tsv",
    "host_integrity.tsv",
];

/// The violations at the default size, `mode: cause` → count: empty (issue 16 done). A cause
/// that must stay open for a while goes here and in `integrity::OPEN_CAUSES`.
const KNOWN_VIOLATIONS: &[(&str, usize)] = &[];

/// Seeds of the mutations: each special scheme, userinfo, ports, IDN and ACE hosts, blob,
/// and relative references (resolved in the base configs).
const SEEDS: &[&str] = &[
    "http://good.com/a/b?q=1#f",
    "https://user:pw@good.com:8443/p/q",
    "ftp://good.com/pub/",
    "ws://good.com/chat",
    "wss://good.com:443/",
    "file://good.com/share/x",
    "file:///etc/hosts",
    "blob:https://good.com/uuid",
    "http://bücher.de/straße",
    "http://xn--bcher-kva.de/",
    "https://例え.テスト/パス",
    "http://good.com",
    "//good.com/x",
    "/p/q",
    "../x/y",
    "x?y",
    "foo://good.com/x",
];

/// What the mutations insert: delimiters, their look-alikes, joiners, deviation characters,
/// ignorables, spaces and controls browsers strip, IPv4 forms, dot segments.
const INSERTS: &[&str] = &[
    "\\",
    "/",
    "%2F",
    "%2f",
    "@",
    ":",
    "\t",
    "\r",
    " ",
    "\u{2215}",
    "\u{2044}",
    "\u{29F8}",
    "\u{2216}",
    "\u{FF3C}",
    "\u{FE68}",
    "\u{FF0E}",
    "\u{3002}",
    "\u{FF61}",
    "\u{FF20}",
    "\u{FF1A}",
    "\u{FF0F}",
    "ノ",
    "\u{200C}",
    "\u{200D}",
    "ß",
    "ς",
    "\u{3164}",
    "\u{00AD}",
    "\u{200B}",
    "\u{FE0F}",
    "\u{2060}",
    "0x7f.1",
    "2130706433",
    "127.1",
    "0x7F",
    ".",
    "..",
    "/..",
    "/../evil.com",
    "%2e%2e",
    "evil.com",
    "evil.com/",
    "xn--zz",
    "xn--80ak6aa92e",
    "%40",
    "%5C",
    "%3A",
    "%E2%88%95",
    "#",
    "?",
    "ü",
    "аррӏе",
    "[::1]",
    ":80",
    "//",
];

/// xorshift64*: the mutations never change between runs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        ((self.next() >> 11) % n as u64) as usize
    }
}

/// FNV-1a over `a`, a 0xFF separator and `b`, finished with a xorshift multiply: a stable hash
/// (the same on every platform and Rust version, unlike `DefaultHasher`).
fn line_hash(a: &[u8], b: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &x in a.iter().chain(&[0xFF]).chain(b) {
        h ^= x as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    let mut r = Rng(h | 1);
    r.next()
}

/// Mutation number `i`: its own xorshift stream, seeded from `i` alone, so that mutation `i`
/// is the same line whatever else the run holds.
fn mutation(i: usize) -> String {
    let mut rng = Rng(line_hash(b"iribulk-16", &(i as u64).to_le_bytes()) | 1);
    mutate(&mut rng)
}

/// The byte offsets of character boundaries of `s` up to `limit`.
fn boundaries(s: &str, limit: usize) -> Vec<usize> {
    let mut v: Vec<usize> = s.char_indices().map(|(i, _)| i).collect();
    v.push(s.len());
    v.retain(|&i| i <= limit);
    v
}

/// One mutation: 1–3 inserts, at positions biased into and around the authority (the first
/// 24 bytes after the scheme's `//`), sometimes replacing the character there; one line in
/// four also gets a space or a control at one end.
fn mutate(rng: &mut Rng) -> String {
    let mut s = SEEDS[rng.below(SEEDS.len())].to_string();
    for _ in 0..1 + rng.below(3) {
        let auth_end = s
            .find("//")
            .map(|i| (i + 2 + 24).min(s.len()))
            .unwrap_or(s.len());
        let limit = if rng.below(4) == 0 { s.len() } else { auth_end };
        let b = boundaries(&s, limit);
        let at = b[rng.below(b.len())];
        let ins = INSERTS[rng.below(INSERTS.len())];
        if rng.below(4) == 0 && at < s.len() {
            let n = s[at..].chars().next().map_or(0, char::len_utf8);
            s.replace_range(at..at + n, ins);
        } else {
            s.insert_str(at, ins);
        }
    }
    // What browsers strip at either end of the line (C0 controls and spaces).
    match rng.below(16) {
        0 => s.insert(0, ' '),
        1 => s.push(' '),
        2 => s.insert(0, '\u{1}'),
        3 => s.push('\u{1F}'),
        _ => {}
    }
    s
}

fn env_usize(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v}: not a number")),
        Err(_) => default,
    }
}

/// Counts per `mode: cause`, three examples each.
#[derive(Default)]
struct Tally {
    counts: BTreeMap<String, usize>,
    examples: BTreeMap<String, Vec<String>>,
    judged: usize,
    written: usize,
    /// Runs through the helpers of the crate root, and those that returned a line.
    api_judged: usize,
    api_written: usize,
    /// Lines where a helper and the engine disagree, three examples.
    disagreements: usize,
    disagree_examples: Vec<String>,
}

impl Tally {
    fn add(&mut self, mode: &str, line: &[u8], out: &[u8], v: &Violation) {
        let class = format!("{mode}: {}", cause(line, v));
        *self.counts.entry(class.clone()).or_default() += 1;
        let ex = self.examples.entry(class).or_default();
        if ex.len() < 3 {
            ex.push(format!(
                "{:?} -> {:?} [{}: {} -> {}]",
                String::from_utf8_lossy(line),
                String::from_utf8_lossy(out),
                v.field,
                v.input,
                v.output
            ));
        }
    }
}

/// The judgements of one written line: the rule, and for `check` and the display modes their
/// own classes.
fn judge_written(
    tally: &mut Tally,
    name: &str,
    class: &str,
    line: &[u8],
    out: &[u8],
    base: Option<&url::Url>,
) {
    if let Some(v) = integrity::judge(line, out, base) {
        tally.add(class, line, out, &v);
    }
    if name == "check" {
        if let Some(v) = check_accepts_bad(line) {
            tally.add(class, line, out, &v);
        }
    }
    if name == "to-iri" || name == "normalize/idn-unicode" {
        if let Some(v) = display_unsafe(line, out) {
            tally.add(class, line, out, &v);
        }
    }
}

/// Runs every line through every config, by the engine and by the helpers of the crate root,
/// and tallies the violations and the disagreements.
fn run_all(lines: &[(Vec<u8>, &'static str)], tally: &mut Tally) {
    for config in configs() {
        let name = config.name;
        let api_class = format!("api {name}");
        let mut runner = Runner::new(config.clone());
        for (line, _src) in lines {
            tally.judged += 1;
            // The base of a resolving config comes from the line and the mode alone, so a
            // row added to tests/data moves no other line's base.
            let k = line_hash(name.as_bytes(), line) as usize;
            let engine = runner.run(line, k);
            if let Some((out, base)) = &engine {
                tally.written += 1;
                judge_written(tally, name, name, line, out, base.as_ref());
            }
            // The library API on the same line (it takes `&str`: UTF-8 lines only).
            let Ok(s) = std::str::from_utf8(line) else {
                continue;
            };
            let base = config
                .resolve
                .then(|| integrity::BASES[k % integrity::BASES.len()]);
            tally.api_judged += 1;
            let api = api_run(config.opts.mode, config.opts.to_uri, s, base);
            if let Ok((out, false)) = &api {
                tally.api_written += 1;
                let base = base.map(|b| url::Url::parse(b).expect("the bases parse"));
                judge_written(tally, name, &api_class, line, out.as_bytes(), base.as_ref());
            }
            let api = api.map(|(out, _)| out);
            if let Some(why) = disagreement(runner.last(), line, &api, base.is_some()) {
                tally.disagreements += 1;
                if tally.disagree_examples.len() < 5 {
                    tally
                        .disagree_examples
                        .push(format!("{name}: {s:?}: {why}"));
                }
            }
        }
    }
}

/// What the helper of the crate root that does `mode` with `t` returns for `s`, resolved
/// first against `base` with `iribulk::resolve` when there is one (a library user's `--base`).
/// `check` returns its input when valid. The flag is true when the line carries one of the
/// warnings that announce another reading (`integrity::ANNOUNCED`; the engine's runs skip
/// those lines too): only `check` returns warnings. `trim` in a mode whose helper has no such option
/// (leiri-to-iri, to-iri, normalize) runs the converter in the [`Guard`] the helpers use.
fn api_run(
    mode: Mode,
    t: ToUriOptions,
    s: &str,
    base: Option<&str>,
) -> Result<(String, bool), LineError> {
    let s: Cow<'_, str> = match base {
        Some(b) => iribulk::resolve(b, s)?,
        None => Cow::Borrowed(s),
    };
    let idna = match t.host {
        iribulk::HostMode::Idna2003(f) => iribulk::host::Idna::Idna2003(f),
        _ => iribulk::host::Idna::Uts46,
    };
    let out = match mode {
        Mode::ToUri => iribulk::iri_to_uri_with(&s, t)?,
        Mode::Check { uri_only } => {
            let c = iribulk::check_with(
                &s,
                CheckOptions {
                    to_uri: t,
                    uri_only,
                },
            )?;
            let announced = c
                .first_warning
                .is_some_and(|w| integrity::ANNOUNCED.contains(&w.code()));
            return Ok((s.into_owned(), announced));
        }
        Mode::LeiriToIri if t.trim => return guarded(LeiriToIri, &s).map(|o| (o, false)),
        Mode::LeiriToIri => iribulk::leiri_to_iri(&s)?,
        Mode::ToIri if t.trim => {
            return guarded(iribulk::ToIri::new(ToIriOptions { host: t.host }), &s)
                .map(|o| (o, false))
        }
        Mode::ToIri => iribulk::to_iri_with(&s, ToIriOptions { host: t.host })?,
        Mode::Normalize { rungs, as_uri } => {
            let o = NormalizeOptions {
                rungs,
                as_uri,
                idna,
            };
            if t.trim {
                return guarded(iribulk::Normalizer::new(o), &s).map(|o| (o, false));
            }
            iribulk::normalize_with(&s, o)?
        }
    };
    Ok((out.into_owned(), false))
}

/// `c` in the [`Guard`] the helpers use, with `trim` (which the helper of its mode lacks).
fn guarded<C: Converter>(c: C, s: &str) -> Result<String, LineError> {
    let g = GuardOptions {
        trim: true,
        warnings_unseen: true,
        ..GuardOptions::default()
    };
    let mut out = Vec::new();
    Guard::new(c, g).convert_or_copy_into(s.as_bytes(), &mut out)?;
    Ok(String::from_utf8(out).expect("UTF-8 in, UTF-8 out"))
}

/// Where the helper's result `api` and the engine's (`res`, on `line`) disagree: the engine
/// reports an error and the helper returns a line, or the reverse (but for `idna2003-differs`,
/// the helpers' error where the engine warns), or the two write other bytes; without a base,
/// both errors have the same code.
fn disagreement(
    res: &ChunkOut,
    line: &[u8],
    api: &Result<String, LineError>,
    resolving: bool,
) -> Option<String> {
    if line.is_empty() {
        return None; // no reference: the engine passes an empty line through
    }
    let first = res.issues.iter().find(|i| !i.warning);
    let err = first.map(|i| i.err.kind.code());
    // The engine reads the segments that resolution's `..` removes (RFC 3986 §5.2.4) and
    // reports a bad byte there; `resolve` then a helper never sees them.
    let popped = first.is_some_and(|i| {
        line[i.err.offset.min(line.len())..]
            .split(|&b| b == b'/' || b == b'?' || b == b'#')
            .any(|seg| seg == b"..")
    });
    let differs = res
        .issues
        .iter()
        .any(|i| i.warning && i.err.kind.code() == "idna2003-differs");
    let mut written = res.render(line);
    if written.last() == Some(&b'\n') {
        written.pop();
    }
    let ok = match (err, api) {
        (Some(c), Err(e)) => resolving || c == e.code(),
        (Some(_), Ok(_)) => resolving && popped,
        (None, Err(e)) => differs && e.code() == "idna2003-differs",
        (None, Ok(out)) => !differs && out.as_bytes() == written,
    };
    (!ok).then(|| {
        format!(
            "engine {:?} / {:?}, api {:?}",
            err,
            String::from_utf8_lossy(&written),
            api.as_ref().map_err(|e| e.code())
        )
    })
}

/// The raw host of an absolute IRI with an authority (userinfo and port removed).
fn raw_host(s: &str) -> Option<&str> {
    let rest = &s[s.find("://")? + 3..];
    let auth = &rest[..rest.find(['/', '?', '#']).unwrap_or(rest.len())];
    let host = &auth[auth.rfind('@').map_or(0, |i| i + 1)..];
    Some(match host.rfind(':') {
        Some(i) if !host.ends_with(']') => &host[..i],
        _ => host,
    })
}

/// `check` writes a line without error that a browser refuses, or that has an invalid A-label
/// (issue 16: `missing-host`, `bad-ace`, `backslash-authority` must be errors there).
fn check_accepts_bad(line: &[u8]) -> Option<Violation> {
    let s = std::str::from_utf8(line).ok()?;
    let scheme = s.split(':').next()?.to_ascii_lowercase();
    if !integrity::SPECIAL.contains(&scheme.as_str()) || scheme == "file" {
        return None;
    }
    let bad_ace = raw_host(s).and_then(iribulk::host::ace::first_bad_ace);
    let parsed = url::Url::parse(s);
    let field = if let Some((_, e)) = bad_ace {
        return Some(Violation {
            field: "bad-ace accepted",
            input: format!("{e}"),
            output: String::new(),
        });
    } else if parsed.is_err() {
        "accepted what browsers refuse"
    } else {
        return None;
    };
    Some(Violation {
        field,
        input: format!("{:?}", parsed.err()),
        output: String::new(),
    })
}

/// The displayed output shows a host label or a decoded character that display safety keeps
/// encoded (issue 16's display rule; `iribulk::host::display`).
fn display_unsafe(line: &[u8], out: &[u8]) -> Option<Violation> {
    use iribulk::host::display::delimiter_lookalikes;
    let out = std::str::from_utf8(out).ok()?;
    let input = String::from_utf8_lossy(line);
    let in_labels: Vec<&str> = raw_host(&input).map_or(vec![], |h| h.split('.').collect());
    // Only the labels the mode decoded (an xn-- or %HH label shown in Unicode): raw Unicode
    // input passes through as it was written.
    let host = raw_host(out).filter(|h| !h.is_ascii() && !h.contains(['%', '[']));
    let decoded: Vec<&str> = host.map_or(vec![], |h| {
        // A label that is written verbatim in the input host was not decoded by the mode
        // (a raw U+200C before a decoded `%2E` splits into labels the input did not have).
        // Nor one that differs only in ASCII case (normalize lower-cases `0x7F`).
        let in_host = raw_host(&input).unwrap_or_default().to_ascii_lowercase();
        h.split('.')
            .filter(|l| !in_labels.contains(l) && !in_host.contains(&l.to_ascii_lowercase()))
            .collect()
    });
    if let (Some(host), false) = (host, decoded.is_empty()) {
        let tld = iribulk::host::display::tld_of(host);
        let verdict = decoded.iter().enumerate().find_map(|(i, l)| {
            iribulk::host::display::check_label(l, tld)
                .err()
                .map(|u| (i, u))
        });
        if let Some((i, u)) = verdict {
            use iribulk::host::display::Unsafe;
            return Some(Violation {
                field: match u {
                    Unsafe::NotAllowed(_) => "display-unsafe label: outside the UTS #39 profile",
                    Unsafe::MixedScript => "display-unsafe label: mixed scripts",
                    Unsafe::WholeScriptConfusable(_) => {
                        "display-unsafe label: whole-script confusable"
                    }
                    Unsafe::DelimiterLookalike(_) => "display-unsafe label: delimiter look-alike",
                    Unsafe::SeparatorLookalike(_) => {
                        "display-unsafe label: dot or hyphen look-alike"
                    }
                    Unsafe::AsciiLookalike => "display-unsafe label: ASCII look-alike",
                    Unsafe::LeadingMark(_) => "display-unsafe label: leading combining mark",
                    Unsafe::MarkOnOtherScript(_) => {
                        "display-unsafe label: combining mark of another script"
                    }
                    Unsafe::CjkLookalike(_) => "display-unsafe label: CJK stroke look-alike",
                    Unsafe::KanaLookalike(_) => "display-unsafe label: kana look-alike",
                    Unsafe::DigitLookalike => "display-unsafe label: digit look-alike",
                    Unsafe::LetterNotShown(_) => "display-unsafe label: letter browsers hide",
                },
                input: format!("decoded label {i}"),
                output: u.to_string(),
            });
        }
    }
    let before = delimiter_lookalikes(&String::from_utf8_lossy(line)).len();
    let after = delimiter_lookalikes(out);
    if after.len() > before {
        return Some(Violation {
            field: "decoded delimiter look-alike",
            input: String::new(),
            output: format!("{:?}", after.iter().map(|p| p.1).collect::<Vec<_>>()),
        });
    }
    None
}

fn read_lines(path: &Path, stride: usize) -> Vec<Vec<u8>> {
    let data = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    data.split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .map(|l| l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l))
        .filter(|l| !l.is_empty())
        .step_by(stride.max(1))
        .map(<[u8]>::to_vec)
        .collect()
}

/// The `input` column of a table of `tests/data`, unescaped.
fn example_inputs(name: &str) -> Vec<Vec<u8>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut rows = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty());
    let header: Vec<&str> = rows.next().expect("a header").split('\t').collect();
    let col = header
        .iter()
        .position(|&h| h == "input")
        .expect("an input column");
    rows.filter_map(|r| r.split('\t').nth(col).map(common::unescape))
        .filter(|l| !l.contains(&b'\n'))
        .collect()
}

#[test]
fn host_integrity_oracle() {
    let mutations = env_usize("IRIBULK_MUTATIONS", DEFAULT_MUTATIONS);
    let stride = env_usize("IRIBULK_DATASET_STRIDE", DEFAULT_STRIDE);
    let at_defaults = mutations == DEFAULT_MUTATIONS && stride == DEFAULT_STRIDE;

    let mut lines: Vec<(Vec<u8>, &'static str)> = Vec::new();
    let shared = common::shared_dir();
    if let Some(shared) = &shared {
        for name in DATASETS {
            let p = shared.join("datasets").join(name);
            lines.extend(read_lines(&p, stride).into_iter().map(|l| (l, "dataset")));
        }
    }
    for t in EXAMPLE_TABLES {
        lines.extend(example_inputs(t).into_iter().map(|l| (l, "example")));
    }
    lines.extend((0..mutations).map(|i| (mutation(i).into_bytes(), "mutation")));

    let mut tally = Tally::default();
    run_all(&lines, &mut tally);

    println!(
        "host integrity: {} lines x {} configs = {} runs, {} written without error; violations:",
        lines.len(),
        configs().len(),
        tally.judged,
        tally.written
    );
    println!(
        "library API: {} runs, {} returned a line; {} disagreements with the engine",
        tally.api_judged, tally.api_written, tally.disagreements
    );
    for e in &tally.disagree_examples {
        println!("            e.g. {e}");
    }
    for (class, n) in &tally.counts {
        println!("  {n:>6}  {class}");
        for e in &tally.examples[class] {
            println!("            e.g. {e}");
        }
    }
    println!("as a table for KNOWN_VIOLATIONS:");
    for (class, n) in &tally.counts {
        println!("    ({class:?}, {n}),");
    }
    assert!(
        tally.written > tally.judged / 2,
        "most runs write their line"
    );
    assert!(
        tally.api_written > tally.api_judged / 2,
        "most helper calls return a line"
    );
    assert_eq!(
        tally.disagreements, 0,
        "the helpers and the engine disagree: {:#?}",
        tally.disagree_examples
    );

    let known: BTreeMap<String, usize> = KNOWN_VIOLATIONS
        .iter()
        .map(|&(c, n)| (c.to_string(), n))
        .collect();
    let new: Vec<&String> = tally
        .counts
        .keys()
        .filter(|c| !known.contains_key(*c))
        .collect();
    assert!(new.is_empty(), "new violation classes: {new:?}");
    if at_defaults && shared.is_some() {
        let mut diffs = Vec::new();
        for (c, &want) in &known {
            let got = tally.counts.get(c).copied().unwrap_or(0);
            if got != want {
                diffs.push(format!("{c}: {want} expected, {got} now"));
            }
        }
        assert!(
            diffs.is_empty(),
            "the tally moved (lower KNOWN_VIOLATIONS when a fix lands): {diffs:#?}"
        );
    }
}

/// The fuzz target tolerates exactly the causes still open here.
#[test]
fn open_causes_match_known_violations() {
    let from_table: std::collections::BTreeSet<&str> = KNOWN_VIOLATIONS
        .iter()
        .map(|(c, _)| c.split_once(": ").expect("mode: cause").1)
        .collect();
    let open: std::collections::BTreeSet<&str> = integrity::OPEN_CAUSES.iter().copied().collect();
    assert_eq!(
        from_table, open,
        "update integrity::OPEN_CAUSES with KNOWN_VIOLATIONS"
    );
}

/// The oracle itself judges: the cases of issue 16 that the url crate must see as violations,
/// and plain conversions it must accept.
#[test]
fn the_judge_sees_issue_16_cases() {
    use integrity::judge;
    let base = url::Url::parse("http://base.example/d/p").unwrap();
    let cases: &[(&str, &str, Option<&url::Url>, &str)] = &[
        (
            "http:/good.com/../evil.com/",
            "http:/evil.com/",
            None,
            "host",
        ),
        (
            "https:///good.com/../evil.com/",
            "https:///evil.com/",
            None,
            "host",
        ),
        ("http:/evil.com", "http:/evil.com", Some(&base), "host"),
        (
            "\\\\evil.com/",
            "http://base.example/d/%5C%5Cevil.com/",
            Some(&base),
            "host",
        ),
        ("http://faß.de/", "http://fass.de/", None, "host"),
        (
            "http://pay\u{200D}pal.com/",
            "http://paypal.com/",
            None,
            "gained",
        ),
        (
            "file:\t//good.com/x",
            "file:%09//good.com/x",
            None,
            "refused",
        ),
        ("http://good.com ", "http://good.com%20", None, "refused"),
        (
            "https://good.com\\@evil.com/",
            "https://good.com%5C@evil.com/",
            None,
            "host",
        ),
    ];
    for &(i, o, b, field) in cases {
        let v = judge(i.as_bytes(), o.as_bytes(), b).unwrap_or_else(|| panic!("{i} -> {o}"));
        assert_eq!(v.field, field, "{i} -> {o}: {v:?}");
    }
    let fine: &[(&str, &str)] = &[
        ("http://bücher.de/ü", "http://xn--bcher-kva.de/%C3%BC"),
        ("HTTP://Good.COM:80/", "http://good.com/"),
        ("http://%c3%bc@good.com/", "http://%C3%BC@good.com/"),
        ("blob:https://good.com/x", "blob:https://good.com/y"),
        ("foo://a/b", "foo://c/d"),
        ("not a url", "still not"),
    ];
    for &(i, o) in fine {
        assert_eq!(judge(i.as_bytes(), o.as_bytes(), None), None, "{i} -> {o}");
    }
    // blob's inner URL is judged; a file URL only with a host.
    assert!(judge(b"blob:https://good.com/x", b"blob:https://evil.com/x", None).is_some());
    assert_eq!(judge(b"file:///a", b"file:///b", None), None);
}

/// The mutations reach what the issue asks for: the authority region and each kind of insert.
#[test]
fn mutations_cover_the_inserts() {
    let mut rng = Rng(7);
    let all: Vec<String> = (0..20_000).map(|_| mutate(&mut rng)).collect();
    for ins in INSERTS {
        assert!(
            all.iter().any(|m| m.contains(ins)),
            "{ins:?} never inserted"
        );
    }
    let in_auth = all
        .iter()
        .filter(|m| m.starts_with("http://") && !m.contains("good.com"))
        .count();
    assert!(in_auth > 0, "some mutations break the host itself");
}

/// The regression rows of `tests/data/host_integrity.tsv` (each decision of issue 16 with its
/// RFC or WHATWG section), through the engine as the CLI runs them.
#[test]
fn host_integrity_rows() {
    use iribulk::convert::normalize::{Idn, Level, Rungs};
    use iribulk::engine::{EngineOptions, Worker};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/host_integrity.tsv");
    let mut failures = Vec::new();
    let rows = common::read_tsv(&path);
    assert!(rows.len() >= 30, "the table was read");
    let mut api_rows = 0;
    for r in &rows {
        let [id, _src, mode, options, base, input, expected, warning] = &r[..] else {
            panic!("row {r:?}");
        };
        let to_uri = common::parse_options(options);
        let mode = match mode.as_str() {
            "to-uri" => Mode::ToUri,
            "to-iri" => Mode::ToIri,
            "check" => Mode::Check { uri_only: false },
            "leiri-to-iri" => Mode::LeiriToIri,
            "normalize-syntax" => Mode::Normalize {
                rungs: Rungs::level(Level::Syntax),
                as_uri: false,
            },
            "normalize-unicode" => Mode::Normalize {
                rungs: Rungs {
                    idn: Some(Idn::Unicode),
                    ..Rungs::level(Level::Syntax)
                },
                as_uri: false,
            },
            m => panic!("{id}: mode {m}"),
        };
        let mut w = Worker::new(EngineOptions {
            mode,
            to_uri,
            ..EngineOptions::default()
        });
        if base != "-" {
            w.set_base(iribulk::engine::Base::Fixed(std::sync::Arc::from(
                common::unescape(base),
            )));
        }
        let line = common::unescape(input);
        let mut res = ChunkOut::default();
        w.convert_chunk_naive(&line, &mut res);
        let err = res.issues.iter().find(|i| !i.warning);
        let warn = res.issues.iter().find(|i| i.warning);
        let got = match err {
            Some(i) => format!("ERROR:{}", i.err.kind.code()),
            None => String::from_utf8_lossy(&res.render(&line)).into_owned(),
        };
        let got_warn = warn.map_or("-", |i| i.err.kind.code());
        // The engine's fast path (the classifier, clean lines passed through, the modes'
        // shortcuts) gives the same (to-iri once passed `blob: https://…` through there).
        let mut fast = ChunkOut::default();
        w.convert_chunk(&line, &mut fast);
        let fast_got = match fast.issues.iter().find(|i| !i.warning) {
            Some(i) => format!("ERROR:{}", i.err.kind.code()),
            None => String::from_utf8_lossy(&fast.render(&line)).into_owned(),
        };
        if fast_got != got {
            failures.push(format!("{id}: fast path {fast_got:?}, naive {got:?}"));
        }
        let want = String::from_utf8_lossy(&common::unescape(expected)).into_owned();
        if got != want || got_warn != warning {
            failures.push(format!(
                "{id}: got {got:?} [{got_warn}], want {want:?} [{warning}]"
            ));
        }
        // The helpers of the crate root give the same, but return `idna2003-differs` as
        // their error (they return no warnings).
        let api_want = if warning == "idna2003-differs" {
            "ERROR:idna2003-differs".to_string()
        } else {
            want.clone()
        };
        let text = String::from_utf8(line.clone()).expect("rows are UTF-8");
        let b = (base != "-").then(|| String::from_utf8(common::unescape(base)).unwrap());
        let api = match api_run(mode, to_uri, &text, b.as_deref()) {
            Ok((out, _)) => out,
            Err(e) => format!("ERROR:{}", e.code()),
        };
        if api != api_want {
            failures.push(format!("{id}: api gives {api:?}, want {api_want:?}"));
        }
        api_rows += 1;
        // The fast path agrees with its twin on every row.
        let mut fast = ChunkOut::default();
        w.convert_chunk(&line, &mut fast);
        assert_eq!(fast.render(&line), res.render(&line), "{id}: fast path");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(api_rows, rows.len(), "every row ran through the helpers");
}
