//! Replays every saved fuzz input (`tests/fuzz_regressions/<target>/*`) through the checks of
//! the fuzz targets (`fuzz/src/checks.rs`, included here by path), on stable Rust. The folder
//! may hold no input at all; the checks also run on a few built-in seeds of every target, so
//! that they are compiled and exercised by `cargo test`.

#[path = "../fuzz/src/checks.rs"]
mod checks;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

/// Saved inputs that still fail because of a bug in `src/` (`target/file`, reason).
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Lines that every target sees, behind several option prefixes.
const SEEDS: &[&[u8]] = &[
    b"",
    b"\n",
    "http://b\u{FC}cher.de/stra\u{DF}e?q=\u{FC}#\u{E9}\r\n".as_bytes(),
    b"http://example.com/a%zz\nhttp://a/\xFF\n\xEF\xBB\xBFhttp://x/\n",
    b"http://xn--bcher-kva.de/%C3%BC%e2%80%ae\nhttp://[fe80::1%25e]/\n",
    "http://evil.com\u{FF0F}.good.com/\t\u{202E}\u{E000}?\u{E000}\n".as_bytes(),
    b"a\tb\tc\nx,y\n//h:8x\n:x\n#\n%\n",
];

const PREFIXES: &[[u8; 6]] = &[
    [0, 0, 0, 0, 0, 0],
    [9, 1, 1, 2, 0, 0],
    [200, 4, 2, 3, 17, 7],
    [1, 5, 4, 84, 2, 30],
    [3, 2, 3, 130, 49, 1],
];

fn run(target: &str, data: &[u8]) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| checks::run_target(target, data))).map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into())
    })
}

#[test]
fn built_in_seeds_pass_every_check() {
    for target in checks::TARGETS {
        for seed in SEEDS {
            for p in PREFIXES {
                let mut data = p.to_vec();
                data.extend_from_slice(seed);
                if let Err(e) = run(target, &data) {
                    panic!("{target} on {:?}: {e}", String::from_utf8_lossy(&data));
                }
            }
        }
    }
}

#[test]
fn saved_fuzz_inputs_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    assert!(
        root.join("README.md").is_file(),
        "tests/fuzz_regressions/README.md explains the folder"
    );
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    let mut replayed = 0;
    for target in checks::TARGETS {
        let dir = root.join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if !f.is_file() || name.starts_with('.') || name.starts_with("README") {
                continue;
            }
            replayed += 1;
            let key = format!("{target}/{name}");
            let known = KNOWN_FAILURES.iter().any(|k| k.0 == key);
            match (run(target, &std::fs::read(&f).unwrap()), known) {
                (Ok(()), true) => fixed.push(key),
                (Err(e), false) => failures.push(format!("{key}: {e}")),
                _ => {}
            }
        }
    }
    for (k, _) in KNOWN_FAILURES {
        assert!(root.join(k).is_file(), "known failure {k} has no file");
    }
    eprintln!("{replayed} saved inputs replayed");
    assert!(
        fixed.is_empty(),
        "known failures now pass (remove them from KNOWN_FAILURES): {fixed:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
