//! `check`'s quick pass (issue 11): `check::quick_valid`, the engine's shortcut that writes a
//! line as it is without running the Guard and the checker, may only pass a line that the
//! naive checker inside its Guard (as the engine runs it: no base, no `--trim`) finds valid
//! with no warning. Checked on every line of every data set, on the synthetic sets of
//! `scripts/gen-dataset`, on unit cases at every length and position, and on random lines over
//! an alphabet of the bytes it decides on; and the engine with the shortcut (every classifier)
//! writes and reports exactly what its naive twin (`convert_chunk_naive`) does, in `check`
//! and `check --uri`, with every filter, and on a `--field`.

mod common;

use iribulk::convert::check::{
    host_quick_fast, host_quick_naive, quick_valid, quick_valid_unflagged, CheckOptions, Checker,
};
use iribulk::convert::integrity::{Guard, GuardOptions};
use iribulk::convert::Written;
use iribulk::engine::{EngineOptions, Filter, Mode};
use iribulk::simd::Impl;
use iribulk::{Converter as _, HostMode, ToUriOptions};
use proptest::prelude::*;

const HOSTS: [HostMode; 4] = [
    HostMode::Auto,
    HostMode::Uts46,
    HostMode::IDNA2003,
    HostMode::Percent,
];

/// The naive checker inside the Guard the engine puts around `check`.
fn oracle(host: HostMode, uri_only: bool) -> Guard<Checker> {
    let opts = CheckOptions {
        to_uri: ToUriOptions::default().host(host),
        uri_only,
    };
    Guard::new(Checker::new_naive(opts), GuardOptions::default())
}

/// True when the oracle finds `line` valid, with no warning, written as it is.
fn clean(g: &mut Guard<Checker>, line: &[u8]) -> bool {
    let mut out = Vec::new();
    match g.convert_into(line, &mut out) {
        Ok(o) => o.written == Written::Passthrough && o.warnings == 0 && out.is_empty(),
        Err(_) => false,
    }
}

/// Asserts the rule on each line for every host mode and both grammars; with `count`,
/// returns how many (line, host mode, grammar) triples the oracle finds clean and how many of
/// them the quick pass passed (without, the oracle runs only where the pass says yes).
fn assert_sound<'a>(
    name: &str,
    lines: impl Iterator<Item = &'a [u8]> + Clone,
    count: bool,
) -> (usize, usize) {
    let (mut clean_n, mut quick_n) = (0, 0);
    for host in HOSTS {
        let mut g = [oracle(host, false), oracle(host, true)];
        for (k, line) in lines.clone().enumerate() {
            let q = quick_valid(line, host);
            // The engine's form agrees wherever its precondition holds.
            let uri_chars = line
                .iter()
                .all(|&b| b.is_ascii_graphic() && !br#""<>\^`{|}"#.contains(&b));
            if uri_chars {
                assert_eq!(quick_valid_unflagged(line, host), q, "{name}:{}", k + 1);
            }
            let mut with_cr = line.to_vec();
            with_cr.push(b'\r');
            if uri_chars {
                assert!(!quick_valid_unflagged(&with_cr, host), "{name}:{}", k + 1);
            }
            if !q && !count {
                continue;
            }
            for g in g.iter_mut() {
                let c = clean(g, line);
                assert!(
                    !q || c,
                    "{name}:{}: {host:?}: the quick pass passed a line the checker does not: {:?}",
                    k + 1,
                    String::from_utf8_lossy(line)
                );
                clean_n += c as usize;
                quick_n += (q && c) as usize;
            }
        }
    }
    (clean_n, quick_n)
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    bytes
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
}

/// The engine with the shortcut, for every classifier, against its naive twin on `data`.
fn assert_engine_same(name: &str, data: &[u8]) {
    for (uri_only, filter, host, field) in [
        (false, Filter::All, HostMode::Auto, None),
        (true, Filter::All, HostMode::Auto, None),
        (false, Filter::InvalidOnly, HostMode::Auto, None),
        (false, Filter::ValidOnly, HostMode::Percent, None),
        (false, Filter::All, HostMode::Uts46, Some((1, b'\t'))),
    ] {
        let mut opts = EngineOptions {
            mode: Mode::Check { uri_only },
            filter,
            field,
            ..Default::default()
        };
        opts.to_uri = opts.to_uri.host(host);
        let ctx = format!("{name}: {filter:?} uri_only={uri_only} {host:?} {field:?}");
        common::assert_engine_twin(&ctx, data, opts, &Impl::ALL);
    }
}

#[test]
fn every_dataset_line_passed_is_clean_and_engine_matches_twin() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let real = name == "real_files_and_shortener.txt";
        let (c, q) = assert_sound(&name, lines(&bytes), real);
        if real {
            // The shortcut is worth having: it passes nearly every clean line of real data.
            assert!(q * 100 >= c * 98, "{name}: {q} of {c} clean lines passed");
        }
        assert_engine_same(&name, &bytes);
    }
}

#[test]
fn synthetic_sets() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (na, bad, seed) in [("0.0", "0.1", "5"), ("0.10", "0.05", "7")] {
        let p = dir.path().join(format!("na{na}-bad{bad}.txt"));
        if !common::gen_dataset(&p, na, bad, seed) {
            return;
        }
        let bytes = std::fs::read(&p).expect("generated file");
        let (c, q) = assert_sound(&p.display().to_string(), lines(&bytes), true);
        assert!(q > 0 && c > 0, "{q} {c}");
        assert_engine_same(&p.display().to_string(), &bytes);
    }
}

/// Heads of each kind, bodies of every length up to 20 and around the 16-byte blocks and the
/// 64-byte head window up to 69, and each byte the pass decides on at every position.
#[test]
fn unit_cases_every_length_and_position() {
    let heads: [&str; 14] = [
        "http://", "HTTPS://", "file://", "file:///", "ws://", "git://", "foo://", "foo:",
        "mailto:", "a+b.c-d:", "//", "", "1http://", "xn--a://",
    ];
    let specials: [&[u8]; 22] = [
        b":",
        b"/",
        b"?",
        b"#",
        b"[",
        b"]",
        b"@",
        b"%",
        b"%4",
        b"%41",
        b".",
        b"-",
        b"..",
        b"xn--",
        b"XN--a",
        b"1",
        b"0x",
        b"_",
        b"\r",
        b" ",
        b"\\",
        "é".as_bytes(),
    ];
    let mut all = Vec::new();
    for head in heads {
        // Lengths around the 16-byte blocks and the 64-byte head window.
        for len in (0..20).chain([24, 31, 32, 33, 47, 48, 49, 60, 61, 62, 63, 64, 65, 66, 69]) {
            let body: Vec<u8> = (0..len)
                .map(|i| match i % 9 {
                    3 => b'.',
                    7 => b'/',
                    _ => b'a' + (i % 26) as u8,
                })
                .collect();
            let mut base = head.as_bytes().to_vec();
            base.extend_from_slice(&body);
            all.push(base.clone());
            for pos in 0..=base.len() {
                for s in specials {
                    let mut l = base[..pos].to_vec();
                    l.extend_from_slice(s);
                    l.extend_from_slice(&base[pos..]);
                    all.push(l);
                }
            }
        }
    }
    // Hosts: a port, a big port, an IP literal, IPvFuture, userinfo, numbers.
    for extra in [
        "http://a.b:8080/x",
        "http://a.b:65536/x",
        "http://a.b:0065535/x",
        "http://a.b:/x",
        "foo://a.b:99999/x",
        "file://h:1/x",
        "file://h/c:/x",
        "file:///c:/../x",
        "http://[::1]/x",
        "http://[v1.x]/x",
        "foo://[v1.x]/x",
        "http://u@h/x",
        "http://u@/x",
        "http://@h/x",
        "http://1.2.3.4/x",
        "http://1.2.3.256/x",
        "http://a.0x1f/x",
        "http://a.08/x",
        "http://a.b.9./",
        "http://xn--bcher-kva.de/",
        "http://xn--zz.de/",
        "http://a-.b/",
        "http://-a.b/",
        "http://a_b.c/",
        "foo://a_b.c/",
        "http:/x",
        "http:x",
        "http://",
        ":x",
        "a:b",
        "http://a.b/#x#y",
        "http://a.b/%zz",
        "http://a%41.b/",
    ] {
        all.push(extra.as_bytes().to_vec());
    }
    for long in [62, 63, 64, 65, 250, 253, 254, 260] {
        let host: String = (0..long)
            .map(|i| if long > 100 && i % 10 == 9 { '.' } else { 'h' })
            .collect();
        for h in [host.clone(), format!("{host}."), format!("a.{host}")] {
            all.push(format!("http://{h}/p").into_bytes());
            all.push(format!("foo://{h}/p").into_bytes());
        }
    }
    let (_, q) = assert_sound("unit", all.iter().map(Vec::as_slice), false);
    assert!(q > 1000, "{q}");
    // The engine on every third case (each length, head and byte still appears at many
    // positions) and on the last ones (hosts, ports, long names).
    let mut chunk = Vec::new();
    let tail = all.len() - 80;
    for (_, l) in all
        .iter()
        .enumerate()
        .filter(|(k, _)| k % 3 == 0 || *k >= tail)
    {
        chunk.extend_from_slice(l);
        chunk.push(b'\n');
    }
    assert_engine_same("unit", &chunk);
}

/// The one-pass host test against its twin on every host of up to 5 bytes over an alphabet
/// of the bytes it decides on, and on labels and names around 63 and 253 bytes.
#[test]
fn host_pass_matches_twin() {
    let alphabet = [b'a', b'Z', b'0', b'9', b'-', b'.', b'_', b'x', b'N', b'!'];
    let mut level = vec![Vec::new()];
    let mut n = 0;
    for _ in 0..5 {
        let mut next = Vec::new();
        for p in &level {
            for &a in &alphabet {
                let mut h: Vec<u8> = p.clone();
                h.push(a);
                for dns in [false, true] {
                    assert_eq!(host_quick_fast(&h, dns), host_quick_naive(&h, dns), "{h:?}");
                    n += host_quick_naive(&h, dns) as u32;
                }
                next.push(h);
            }
        }
        level = next;
    }
    assert!(n > 10_000, "{n}");
    for h in [
        "xn--a.b", "a.XN--b", "a.xN-b", "a.0x1F", "a.08", "a.07", "1.2.3.4", "1.2.3.4.",
    ] {
        for dns in [false, true] {
            assert_eq!(
                host_quick_fast(h.as_bytes(), dns),
                host_quick_naive(h.as_bytes(), dns),
                "{h}"
            );
        }
    }
    for len in [62, 63, 64, 250, 252, 253, 254, 255] {
        let name: String = (0..len)
            .map(|i| if len > 100 && i % 8 == 7 { '.' } else { 'x' })
            .collect();
        for h in [
            name.clone(),
            format!("{name}."),
            format!("{name}.."),
            format!("b.{name}"),
        ] {
            for dns in [false, true] {
                assert_eq!(
                    host_quick_fast(h.as_bytes(), dns),
                    host_quick_naive(h.as_bytes(), dns),
                    "{h}"
                );
            }
        }
    }
}

fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        ":",
        ":",
        "/",
        "/",
        "//",
        "?",
        "#",
        "[",
        "]",
        "@",
        "%",
        "%41",
        "%2e",
        "%4",
        ".",
        ".",
        "0",
        "1",
        "9",
        "255",
        "0x1",
        "A",
        "F",
        "Z",
        "a",
        "f",
        "z",
        "-",
        "_",
        "~",
        "!",
        "=",
        "&",
        "xn--",
        "XN--",
        "xn--bcher-kva",
        "http://",
        "https://",
        "file://",
        "ws://",
        "foo://",
        "v1.",
        "::1",
        "\r",
        " ",
        "é",
        "\t",
        "\t",
        ",",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_lines_passed_are_clean(tokens in prop::collection::vec(token(), 1..24)) {
        let line = tokens.concat();
        assert_sound("proptest", std::iter::once(line.as_bytes()), true);
    }

    #[test]
    fn random_chunks_engine_matches_twin(
        lines in prop::collection::vec(prop::collection::vec(token(), 0..16), 1..8),
        crlf in any::<bool>(),
    ) {
        let sep = if crlf { "\r\n" } else { "\n" };
        let data: String = lines.iter().map(|t| t.concat() + sep).collect();
        assert_engine_same("proptest", data.as_bytes());
    }
}
