//! Options are checked before any input is read: every flag × every mode against the one table
//! (`cli::OPTIONS` of src/bin/iribulk/cli.rs) that the command itself reads, what each flag needs besides its
//! mode, `--base` without a scheme, and file paths that cannot be written.

use clap::CommandFactory;
// The command's own module, compiled into this test (it is not library API).
#[allow(dead_code)]
#[path = "../src/bin/iribulk/cli.rs"]
mod cli;
use cli::{Cli, Mode, OPTIONS};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iribulk"))
}

fn run(args: &[String], stdin: &[u8]) -> Output {
    let mut c = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may refuse its options before reading stdin: a closed pipe is fine then.
    let _ = c.stdin.take().unwrap().write_all(stdin);
    c.wait_with_output().unwrap()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Arguments that exercise the flag with clap id `id` in `mode`, with what it needs besides its
/// mode (so that only the mode decides whether it is refused).
fn example(id: &str, mode: Mode, dir: &Path) -> Vec<String> {
    let idn_rung: &[&str] = if mode == Mode::Normalize {
        &["--idn", "ascii"]
    } else {
        &[]
    };
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
    let mut v = match id {
        "input" => strs(&["--in", "-"]),
        "output" => strs(&["--out", "-"]),
        "mode" => vec![],
        "uri" => strs(&["--uri"]),
        "valid_only" => strs(&["--valid-only"]),
        "invalid_only" => strs(&["--invalid-only"]),
        "level" => strs(&["--level", "syntax"]),
        "case" => strs(&["--case"]),
        "percent" => strs(&["--percent"]),
        "nfc" => strs(&["--nfc"]),
        "nfkc" => strs(&["--nfkc"]),
        "path" => strs(&["--path"]),
        "scheme_rules" => strs(&["--scheme-rules"]),
        "idn" => strs(&["--idn", "unicode"]),
        "as_uri" => strs(&["--as-uri"]),
        "base" => strs(&["--base", "http://a/b/"]),
        "base_field" => strs(&["--field", "2", "--base-field", "1"]),
        "host" => [&["--host", "uts46"][..], idn_rung]
            .concat()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        "host_fallback" => strs(&["--host-fallback", "percent"]),
        "idna2003_no_unassigned" | "idna2003_no_std3" => {
            let flag = format!("--{}", id.replace('_', "-"));
            let mut v = strs(&["--host", "idna2003", &flag]);
            v.extend(strs(idn_rung));
            v
        }
        "strict" => strs(&["--strict"]),
        "leiri" => strs(&["--leiri"]),
        "invalid_utf8" => strs(&["--invalid-utf8", "percent"]),
        "repair" => strs(&["--repair", "brackets,hash"]),
        "on_error" => strs(&["--on-error", "skip"]),
        "errors" => vec!["--errors".into(), path("errors.tsv")],
        "errors_format" => vec![
            "--errors".into(),
            path("errors.jsonl"),
            "--errors-format".into(),
            "jsonl".into(),
        ],
        "files" => strs(&["-"]),
        "field" => strs(&["--field", "1"]),
        "delimiter" => strs(&["--field", "1", "--delimiter", ","]),
        "charset" => strs(&["--charset", "shift_jis"]),
        "charset_field" => strs(&["--field", "2", "--charset-field", "1"]),
        "query_charset" => strs(&["--charset", "windows-1251", "--query-charset", "utf-8"]),
        "threads" => strs(&["--threads", "1"]),
        "no_mmap" => strs(&["--no-mmap"]),
        "max_line_bytes" => strs(&["--max-line-bytes", "1K"]),
        "chunk_size" => strs(&["--chunk-size", "64K"]),
        "stats" => strs(&["--stats", "json"]),
        "stats_file" => vec!["--stats-file".into(), path("stats.txt")],
        "exit_zero" => strs(&["--exit-zero"]),
        "quiet" => strs(&["--quiet"]),
        "trim" => strs(&["--trim"]),
        other => panic!("flag id {other} has no example here: add one"),
    };
    v.splice(0..0, ["--mode".to_string(), mode.name().to_string()]);
    v
}

#[test]
fn the_table_names_every_flag_of_the_command_once() {
    let cmd = Cli::command();
    let ids: Vec<String> = cmd
        .get_arguments()
        .map(|a| a.get_id().as_str().to_string())
        .filter(|id| id != "help" && id != "version")
        .collect();
    for id in &ids {
        assert_eq!(
            OPTIONS.iter().filter(|a| a.id == id).count(),
            1,
            "{id} must have exactly one row in cli::OPTIONS"
        );
    }
    for a in OPTIONS {
        assert!(ids.iter().any(|i| i == a.id), "{} is not a flag", a.id);
        let arg = cmd.get_arguments().find(|x| x.get_id() == a.id).unwrap();
        match arg.get_long() {
            Some(l) => assert_eq!(format!("--{l}"), a.flag, "the row's flag is clap's"),
            None => assert!(arg.is_positional(), "{}", a.id),
        }
    }
}

#[test]
fn every_flag_in_every_mode_follows_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let mut refused = 0;
    for a in OPTIONS {
        for mode in Mode::ALL {
            let args = example(a.id, mode, dir.path());
            let o = run(&args, b"http://a/b\n");
            let e = stderr(&o);
            if a.modes.has(mode) {
                // Accepted: the run happens (0, or 3 when the example's line misses a field).
                assert!(
                    matches!(o.status.code(), Some(0 | 3)),
                    "{args:?} is accepted: {e}"
                );
                assert!(!e.contains("does not apply"), "{args:?}: {e}");
            } else {
                refused += 1;
                assert_eq!(o.status.code(), Some(2), "{args:?} is refused: {e}");
                let want = format!("{} does not apply to --mode {}", a.flag, mode.name());
                assert!(e.contains(&want), "{args:?}: {e}");
                assert!(o.stdout.is_empty(), "nothing is written: {args:?}");
            }
        }
    }
    // The table is not trivially permissive: the check, normalize and to-uri-only flags.
    assert!(refused >= 3 * 4 + 9 * 4 + 4 * 4, "{refused}");
}

#[test]
fn flags_are_refused_without_what_they_need() {
    let cases: &[(&[&str], &str)] = &[
        (&["--delimiter", " "], "--delimiter goes with --field"),
        (
            &["--idna2003-no-std3"],
            "--idna2003-no-std3 goes with --host idna2003",
        ),
        (
            &["--host", "uts46", "--idna2003-no-unassigned"],
            "--idna2003-no-unassigned goes with --host idna2003",
        ),
        (
            &["--host", "percent", "--host-fallback", "percent"],
            "--host-fallback means nothing with --host percent",
        ),
        (
            &["--mode", "check", "--valid-only", "--on-error", "fail"],
            "--on-error does not apply with --valid-only",
        ),
        (
            &["--mode", "normalize", "--host", "idna2003"],
            "--host in --mode normalize picks the IDNA version",
        ),
        (
            &["--mode", "normalize", "--idn", "ascii", "--host", "percent"],
            "percent does not apply to --mode normalize",
        ),
        // Issue-10 options silently ignored by normalize so far: refused there.
        (
            &["--mode", "normalize", "--strict"],
            "--strict does not apply to --mode normalize",
        ),
        (
            &["--mode", "normalize", "--invalid-utf8", "error"],
            "--invalid-utf8 does not apply to --mode normalize",
        ),
        (
            &["--query-charset", "document"],
            "--query-charset goes with --charset LABEL or --charset-field N",
        ),
        (
            &["--charset", "klingon"],
            "--charset 'klingon' is not a label of the WHATWG Encoding Standard",
        ),
        // A label of the "replacement" encoding is one, refused for what it is (found by a
        // QA sweep: the message called it no label).
        (
            &["--charset", "hz-gb-2312"],
            "--charset 'hz-gb-2312' names the Encoding Standard's \"replacement\" encoding",
        ),
        (
            &["--field", "2", "--charset-field", "2"],
            "--charset-field 2 is the field --field converts",
        ),
        // Found by a QA sweep: accepted, then every record was `bad-base`.
        (
            &["--field", "1", "--base-field", "1"],
            "--base-field 1 is the field --field converts",
        ),
        (
            &["--field", "2", "--base-field", "1", "--delimiter", ":"],
            "--delimiter ':' splits every base of --base-field",
        ),
        (
            &["--field", "3", "--base-field", "1", "--charset-field", "1"],
            "--base-field 1 is also --charset-field 1",
        ),
        // Found by a QA sweep: accepted, and --idn unicode had no effect.
        (
            &["--mode", "normalize", "--as-uri", "--idn", "unicode"],
            "--idn unicode does not go with --as-uri",
        ),
        // Two at once: both are named.
        (
            &["--mode", "to-iri", "--leiri", "--host-fallback", "percent"],
            "--host-fallback does not apply to --mode to-iri",
        ),
    ];
    for (args, want) in cases {
        let o = run(&strs(args), b"http://a/\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let o = run(
        &strs(&["--mode", "to-iri", "--leiri", "--invalid-utf8", "error"]),
        b"",
    );
    assert!(stderr(&o).contains("--leiri does not apply"));
    assert!(stderr(&o).contains("--invalid-utf8 does not apply"));
    // What they need given: accepted.
    for args in [
        &["--field", "1", "--delimiter", " "][..],
        &["--host", "idna2003", "--idna2003-no-std3"],
        &[
            "--mode",
            "normalize",
            "--level",
            "scheme",
            "--host",
            "idna2003",
        ],
        &["--mode", "check", "--on-error", "skip"],
        &["--host", "auto", "--host-fallback", "percent"],
    ] {
        let o = run(&strs(args), b"http://a/\n");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn too_many_threads_is_a_usage_error() {
    // Found by a QA sweep: --threads 100000 spent minutes starting threads before a line.
    let o = run(&strs(&["--threads", "1025"]), b"http://a/\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("at most 1024"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let o = run(&strs(&["--threads", "3", "-q"]), b"http://a/\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, b"http://a/\n");
}

#[test]
fn a_base_without_a_scheme_is_a_usage_error_before_any_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    // Exit 2 (usage), not 1: the missing input was never opened; `why` in the message.
    let refused = |base: &str, why: &str| {
        let o = bin()
            .args(["--base", base, "--in", "/nonexistent/input.txt", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{base:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--base") && stderr(&o).contains(why),
            "{base:?}: {}",
            stderr(&o)
        );
        assert!(!out.exists());
    };
    for base in ["example.com/a/", "/a/b", "//host/", "1http://x/", ""] {
        refused(base, "not an absolute IRI");
    }
    let o = run(&strs(&["--base", "urn:x:y", "-q"]), b"#f\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, b"urn:x:y#f\n");
    // Under --strict, as --strict reads the lines (a QA sweep: accepted, then every line
    // that kept the base's path was `disallowed-ascii` at column 1).
    let o = run(&strs(&["--strict", "--base", "http://a/b c/"]), b"#f\n");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("disallowed-ascii at byte 11"),
        "{}",
        stderr(&o)
    );
    let o = run(&strs(&["-q", "--base", "http://a/b c/"]), b"#f\n");
    assert_eq!(o.stdout, b"http://a/b%20c/#f\n");
    // An absolute reference that is no IRI (found by a QA sweep): refused before any line.
    refused("http://a/%zz/c", "is not an IRI: bad-percent at byte 10");
    refused("http://[::1/", "is not an IRI: bad-ip-literal at byte 8");
    refused("http://a/\u{85}x", "is not an IRI: control-char");
    // A host the run's host mode refuses (found by a QA sweep: each relative line was `idna`
    // or `ambiguous-ipv4` at column 1): refused in the default mode, a base in `--host
    // percent`; `idna2003-differs` stays the lines' warning.
    refused(
        "http://pay\u{200D}pal.com/",
        // At the joiner (the idna error's column is its fault's, 7fb9b1e).
        "is not an IRI: idna at byte 11",
    );
    refused(
        "http://127\u{3002}1/",
        "is not an IRI: ambiguous-ipv4 at byte 8",
    );
    let o = run(
        &strs(&[
            "--base",
            "http://pay\u{200D}pal.com/",
            "--host",
            "percent",
            "-q",
        ]),
        b"x\n",
    );
    assert_eq!(
        o.stdout,
        b"http://pay%E2%80%8Dpal.com/x\n",
        "{}",
        stderr(&o)
    );
    let o = run(
        &strs(&["--base", "http://fa\u{DF}.de/", "--host", "idna2003", "-q"]),
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(o.stdout, b"http://fass.de/x\n", "{}", stderr(&o));
    // A joiner Nameprep deletes is an error in that mode too (found by a QA sweep).
    let o = run(
        &strs(&[
            "--base",
            "http://pay\u{200D}pal.com/",
            "--host",
            "idna2003",
            "-q",
        ]),
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A host that is no DNS name is still a base (not asked of IDNA), and what to-uri
    // repairs by default is repaired in a base as in a reference.
    let o = run(&strs(&["--base", "http://a_b.example/", "-q"]), b"x\n");
    assert_eq!(o.stdout, b"http://a_b.example/x\n", "{}", stderr(&o));
    let o = run(&strs(&["--base", "http://a.example/b c/", "-q"]), b"x\n");
    assert_eq!(o.stdout, b"http://a.example/b%20c/x\n", "{}", stderr(&o));
}

#[test]
fn file_options_are_checked_before_the_input_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.txt");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let bad = [
        dir.path().join("missing-dir/errors.tsv"),
        file.join("errors.tsv"),
        dir.path().to_path_buf(),
        #[cfg(target_os = "linux")]
        Path::new("/proc/iribulk-cannot-create.tsv").to_path_buf(),
    ];
    for flag in ["--errors", "--stats-file"] {
        for p in &bad {
            let o = bin()
                .args(["--in", "/nonexistent/input.txt", "--out"])
                .arg(&out)
                .arg(flag)
                .arg(p)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "{flag} {p:?}: {}", stderr(&o));
            assert!(stderr(&o).contains(flag), "{}", stderr(&o));
            assert!(!out.exists());
        }
    }
    // The probe leaves nothing behind.
    let o = bin()
        .args(["-q", "--in", "/nonexistent/input.txt", "--errors"])
        .arg(dir.path().join("e.tsv"))
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "a missing input is fatal, not usage"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("a-file")], "{names:?}");
}

#[test]
fn bench_checks_its_paths_and_input_first() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, b"http://a/\n").unwrap();
    let o = bin()
        .args(["bench", "--runs", "1", "--in"])
        .arg(&input)
        .arg("--plot")
        .arg(dir.path().join("no/such/dir/c.svg"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--plot"), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing was measured");
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let o = bin()
        .args(["bench", "--runs", "1", "--in"])
        .arg(&empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no line"), "{}", stderr(&o));
    let o = bin()
        .args(["bench", "--in", "/nonexistent/x.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/x.txt"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn a_fifo_as_errors_is_not_opened_by_the_check() {
    // The up-front check must not open and close a FIFO: its reader would see the end of the
    // data before the report is written.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("errors.fifo");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let o = bin()
        .args(["-q", "--errors"])
        .arg(&fifo)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"http://a/%zz\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    let report = reader.join().unwrap();
    assert!(
        report.contains("\tbad-percent\t"),
        "the reader got the whole report: {report:?}"
    );
}
