//! End-to-end tests of the `iribulk` command: every flag, the error report, exit codes, and
//! the failure cases (missing files, /dev/full, truncated input, closed pipe).

mod common;
use common::{report_rows, run_stdin};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iribulk"))
}

fn sample_path() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/datasets/sample.txt"))
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_has_examples_and_exit_codes() {
    let o = bin().arg("--help").output().unwrap();
    assert!(o.status.success());
    let h = stdout(&o);
    for s in [
        "--in",
        "--out",
        "--host",
        "--on-error",
        "--errors",
        "--field",
        "Examples:",
        "Exit status",
    ] {
        assert!(h.contains(s), "help lacks {s}");
    }
}

#[test]
fn sample_dataset_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("uris.txt");
    let rep = dir.path().join("errors.tsv");
    let o = bin()
        .arg("--in")
        .arg(sample_path())
        .arg("--out")
        .arg(&out)
        .arg("--errors")
        .arg(&rep)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let input = std::fs::read(sample_path()).unwrap();
    let output = std::fs::read(&out).unwrap();
    assert_eq!(
        input.iter().filter(|&&b| b == b'\n').count(),
        output.iter().filter(|&&b| b == b'\n').count(),
        "line i of the output belongs to line i of the input"
    );
    let report = std::fs::read_to_string(&rep).unwrap();
    let rows: Vec<&str> = report.lines().collect();
    assert_eq!(rows[0], "file\tline\tcolumn\tcode\tmessage\tinput");
    assert_eq!(rows.len(), 1 + 11, "{report}");
    let file = format!("{}\t", sample_path().display());
    assert!(rows[1..].iter().all(|r| r.starts_with(&file)), "{report}");
    let rows: Vec<&str> = rows[1..].iter().map(|r| &r[file.len()..]).collect();
    assert!(rows
        .iter()
        .any(|r| r.starts_with("30\t") && r.contains("invalid-utf8") && r.contains("\\xFF")));
    assert!(rows
        .iter()
        .any(|r| r.starts_with("109\t") && r.contains("warning: ")));
    let e = stderr(&o);
    assert!(e.contains("406 lines"), "{e}");
    assert!(e.contains("lines in 406 = written 406 + skipped 0"), "{e}");
    // Every output line is ASCII except the kept error lines.
    let non_ascii_lines = String::from_utf8_lossy(&output)
        .lines()
        .filter(|l| !l.is_ascii())
        .count();
    assert!(non_ascii_lines <= 4, "{non_ascii_lines}");
}

#[test]
fn clean_input_exits_zero_and_stdin_stdout_work() {
    let o = run_stdin(
        &["--in", "-", "--out", "-"],
        "http://bücher.de/ü\nhttps://a/b\n".as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "http://xn--bcher-kva.de/%C3%BC\nhttps://a/b\n");
}

#[test]
fn on_error_skip_and_fail() {
    let input = b"http://a/ok\nhttp://a/%zz\nhttp://a/\xC3\xA9\n";
    let o = run_stdin(&["--on-error", "skip"], input);
    assert_eq!(
        o.status.code(),
        Some(0),
        "dropping bad lines is what was asked"
    );
    assert_eq!(stdout(&o), "http://a/ok\nhttp://a/%C3%A9\n");
    assert!(
        stderr(&o).contains("written 2 + skipped 1"),
        "{}",
        stderr(&o)
    );

    let o = run_stdin(&["--on-error", "keep"], input);
    assert_eq!(stdout(&o), "http://a/ok\nhttp://a/%zz\nhttp://a/%C3%A9\n");

    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in.txt");
    std::fs::write(&inp, input).unwrap();
    let out = dir.path().join("out.txt");
    let o = bin()
        .args(["--on-error", "fail", "--in"])
        .arg(&inp)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).contains("stopped at the first error"),
        "{}",
        stderr(&o)
    );
    // The summary counts the first line as written: it says where it is not.
    assert!(
        stderr(&o).contains("an --out FILE is left as it was"),
        "{}",
        stderr(&o)
    );
    assert!(
        !out.exists(),
        "a failed run leaves no complete-looking output"
    );
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
}

#[test]
fn stats_json_and_quiet() {
    let o = run_stdin(&["--stats", "json"], b"http://a/ b\n/%zz\n");
    let e = stderr(&o);
    assert!(
        e.trim_start().starts_with('{') && e.trim_end().ends_with('}'),
        "{e}"
    );
    for k in [
        "\"lines\":2",
        "\"error_lines\":1",
        "\"repaired_lines\":1",
        "\"bad-percent\":1",
        "\"mb_per_s\":",
    ] {
        assert!(e.contains(k), "{k} in {e}");
    }
    let o = run_stdin(&["--quiet"], b"/%zz\n");
    assert_eq!(o.status.code(), Some(3));
    assert!(o.stderr.is_empty());
}

#[test]
fn host_modes_and_idna_flags() {
    let line = "http://WWW.faß.DE/\n".as_bytes();
    let cases: &[(&[&str], &str)] = &[
        (&["--host", "auto"], "http://www.xn--fa-hia.de/\n"),
        (&["--host", "uts46"], "http://www.xn--fa-hia.de/\n"),
        (&["--host", "idna2003"], "http://WWW.fass.DE/\n"),
        (&["--host", "percent"], "http://WWW.fa%C3%9F.DE/\n"),
    ];
    for (args, want) in cases {
        let o = run_stdin(args, line);
        assert_eq!(stdout(&o), *want, "{args:?}");
    }
    let bad = "http://a_b.bücher.de/\n".as_bytes();
    assert_eq!(
        run_stdin(&["--host", "idna2003"], bad).status.code(),
        Some(3)
    );
    let o = run_stdin(&["--host", "idna2003", "--idna2003-no-std3"], bad);
    assert_eq!(stdout(&o), "http://a_b.xn--bcher-kva.de/\n");
    let o = run_stdin(&["--host-fallback", "percent"], bad);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "http://a_b.b%C3%BCcher.de/\n");
    assert!(
        stderr(&o).contains("after IDNA failed: 1"),
        "{}",
        stderr(&o)
    );
    let o = run_stdin(
        &["--host", "idna2003", "--idna2003-no-unassigned"],
        "http://\u{1E9E}.de/\n".as_bytes(),
    );
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn strict_leiri_and_invalid_utf8() {
    let o = run_stdin(&["--strict"], b"http://a/b c\n");
    assert_eq!(o.status.code(), Some(3));
    let o = run_stdin(&["--strict"], "/\u{202E}\n".as_bytes());
    assert_eq!(o.status.code(), Some(3));
    let o = run_stdin::<&str>(&[], "/\u{202E}\n".as_bytes());
    assert_eq!(
        o.status.code(),
        Some(0),
        "warnings alone give 0 (contract 11)"
    );
    let o = run_stdin(&["--leiri"], b"/a\x01b\n");
    assert_eq!(stdout(&o), "/a%01b\n");
    let o = run_stdin::<&str>(&[], b"/a\x01b\n");
    assert_eq!(o.status.code(), Some(3));
    let o = run_stdin(&["--invalid-utf8", "percent"], b"/caf\xE9\n");
    assert_eq!(stdout(&o), "/caf%E9\n");
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn field_delimiter_threads_chunks_mmap() {
    let input = "1\thttp://bücher.de/\tx é\n2\t/ü\ty\n".as_bytes();
    let want = "1\thttp://xn--bcher-kva.de/\tx é\n2\t/%C3%BC\ty\n";
    let o = run_stdin(&["--field", "2"], input);
    assert_eq!(stdout(&o), want);
    let comma = "1,/ü,é\n".as_bytes();
    let o = run_stdin(&["--field", "2", "--delimiter", ","], comma);
    assert_eq!(stdout(&o), "1,/%C3%BC,é\n");
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("in.tsv");
    std::fs::write(&inp, input.repeat(1000)).unwrap();
    let mut outs = Vec::new();
    for extra in [
        vec!["--threads", "1"],
        vec!["--threads", "3", "--chunk-size", "100"],
        vec!["--no-mmap", "--chunk-size", "1K"],
    ] {
        let o = bin()
            .args(["--field", "2", "--in"])
            .arg(&inp)
            .args(&extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0));
        outs.push(o.stdout);
    }
    assert!(outs.iter().all(|o| *o == want.repeat(1000).into_bytes()));
}

/// A `--chunk-size` far beyond the input (and the largest one that parses) on a stream: the
/// buffer grows with what the stream holds, not to the chunk size at once (a QA sweep found
/// 99999999999999 aborting on a 3.5 KB pipe, and 100G zero-filling for over a minute), so
/// the run converts the lines and exits at once; `--max-line-bytes` likewise.
#[test]
fn huge_chunk_sizes_on_streams_hold_what_the_stream_holds() {
    let input = "http://a.example/ü\nhttp://b.example/\n/x".repeat(200);
    let want = run_stdin::<&str>(&[], input.as_bytes());
    assert_eq!(want.status.code(), Some(0));
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("in.txt.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut e, input.as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    for size in ["99999999999999", "100G", "18446744073709551615"] {
        let start = std::time::Instant::now();
        let o = run_stdin(
            &["--chunk-size", size, "--max-line-bytes", size],
            input.as_bytes(),
        );
        assert_eq!(o.status.code(), Some(0), "{size}: {}", stderr(&o));
        assert_eq!(o.stdout, want.stdout, "{size}");
        let o = bin()
            .args(["--chunk-size", size, "--in"])
            .arg(&gz)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{size}: {}", stderr(&o));
        assert_eq!(o.stdout, want.stdout, "{size} .gz");
        // Seconds to spare: the abort was immediate, the zero-fill took over a minute.
        assert!(
            start.elapsed().as_secs() < 30,
            "{size}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn max_line_bytes_and_crlf() {
    let mut input = b"/a\r\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 300));
    input.extend_from_slice(b"\n/\xC3\xBC");
    let o = run_stdin(&["--max-line-bytes", "100", "--chunk-size", "64"], &input);
    assert_eq!(o.status.code(), Some(3));
    let mut want = b"/a\r\n".to_vec();
    want.extend(std::iter::repeat_n(b'x', 300));
    want.extend_from_slice(b"\n/%C3%BC");
    assert_eq!(o.stdout, want, "CRLF kept, no newline added at the end");
    assert!(stderr(&o).contains("line-too-long 1"), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["--host", "nope"][..],
        &["--field", "0"],
        &["--field", "1", "--delimiter", "ab"],
        // A delimiter a conversion or the base writes into the field (found by a QA sweep).
        &["--field", "1", "--delimiter", "C"],
        &["--field", "1", "--delimiter", "%"],
        &["--field", "1", "--delimiter", ":", "--base", "http://h/"],
        &["--field", "1", "--delimiter", "?", "--base", "http://h/?q"],
        &["--max-line-bytes", "0"],
        &["--bogus"],
    ] {
        let o = bin().args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn missing_input_output_dir_and_directory_input() {
    let o = bin().args(["--in", "/nonexistent/x.txt"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("/nonexistent/x.txt") && e.contains("No such file"),
        "{e}"
    );
    assert_eq!(e.lines().count(), 1, "one-line message: {e}");

    let o = bin()
        .arg("--in")
        .arg(sample_path())
        .args(["--out", "/nonexistent-dir/out.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("/nonexistent-dir/out.txt"),
        "{}",
        stderr(&o)
    );

    let o = bin().args(["--in", "/tmp"]).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("directory"), "{}", stderr(&o));
}

#[test]
fn disk_full() {
    if !Path::new("/dev/full").exists() {
        common::skip("no /dev/full on this system");
        return;
    }
    let o = bin()
        .arg("--in")
        .arg(sample_path())
        .args(["--out", "/dev/full"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("/dev/full") && e.contains("No space left"),
        "{e}"
    );
}

#[test]
fn truncated_gzip_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for i in 0..20000 {
        writeln!(enc, "http://example.com/{i}/ü").unwrap();
    }
    let gz = enc.finish().unwrap();
    let inp = dir.path().join("in.txt.gz");
    std::fs::write(&inp, &gz[..gz.len() / 2]).unwrap();
    let out = dir.path().join("out.txt");
    let o = bin()
        .arg("--in")
        .arg(&inp)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("in.txt.gz"), "{}", stderr(&o));
    assert!(!out.exists(), "no output under the final name");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "temporary file removed"
    );
}

#[test]
fn gzip_on_stdin_by_magic() {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all("/ü\n".as_bytes()).unwrap();
    let o = run_stdin::<&str>(&[], &enc.finish().unwrap());
    assert_eq!(stdout(&o), "/%C3%BC\n");
}

#[test]
fn closed_pipe_is_a_quiet_success() {
    let dir = tempfile::tempdir().unwrap();
    let inp = dir.path().join("big.txt");
    let line = "http://example.com/ü/path?q=1\n";
    std::fs::write(&inp, line.repeat(400_000)).unwrap();
    let mut c = bin()
        .arg("--in")
        .arg(&inp)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = c.stdout.take().unwrap();
    let mut buf = [0u8; 100];
    out.read_exact(&mut buf).unwrap();
    drop(out);
    let status = c.wait().unwrap();
    let mut err = String::new();
    c.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("error"), "{err}");
}

#[test]
fn mode_to_iri() {
    let o = run_stdin(
        &["--mode", "to-iri"],
        b"http://xn--99zt52a.example.org/D%C3%BCrst/%e2%80%ae\nhttp://a/%zz\nplain\n",
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(
        stdout(&o),
        "http://納豆.example.org/Dürst/%E2%80%AE\nhttp://a/%zz\nplain\n"
    );
}

#[test]
fn mode_check_as_a_filter() {
    let input = "http://bücher.de/\nhttp://a/ b\nhttp://my_site.com/\n/ＡＢ\n".as_bytes();
    let dir = tempfile::tempdir().unwrap();
    let rep = dir.path().join("r.tsv");
    let o = bin()
        .args(["--mode", "check", "--valid-only", "--errors"])
        .arg(&rep)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(input)?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "filtering is what was asked");
    assert_eq!(stdout(&o), "http://bücher.de/\n/ＡＢ\n");
    let report = std::fs::read_to_string(&rep).unwrap();
    assert!(report.contains("\tdisallowed-ascii\t"), "{report}");
    assert!(report.contains("\tidna\t"), "{report}");
    assert!(report.contains("\tcompat-char\twarning: "), "{report}");
    let o = run_stdin(&["--mode", "check", "--invalid-only"], input);
    assert_eq!(stdout(&o), "http://a/ b\nhttp://my_site.com/\n");
    let o = run_stdin(&["--mode", "check", "--uri"], "http://a/ü\n".as_bytes());
    assert_eq!(o.status.code(), Some(3));
    let o = run_stdin(&["--mode", "check"], "http://a/ü\n".as_bytes());
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "http://a/ü\n",
        "check writes valid lines unchanged"
    );
    // The check flags belong to check mode.
    let o = bin()
        .args(["--valid-only"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn mode_leiri_to_iri() {
    let o = run_stdin(
        &["--mode", "leiri-to-iri"],
        "http://a/b c\u{202E}é\n".as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "http://a/b%20c%E2%80%AEé\n");
}

#[test]
fn mode_normalize_levels_and_rungs() {
    // RFC 3987 §5.3.3: the four http examples are equivalent at scheme level.
    let input =
        b"http://example.com\nhttp://example.com/\nhttp://example.com:/\nhttp://example.com:80/\n";
    let o = run_stdin(&["--mode", "normalize", "--level", "scheme"], input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "http://example.com/\n".repeat(4));
    // Each rung on its own flag; string level changes nothing.
    let o = run_stdin(
        &["--mode", "normalize", "--level", "string", "--case"],
        b"HTTP://Ex.COM/A%7e\n",
    );
    assert_eq!(stdout(&o), "http://ex.com/A%7E\n");
    let o = run_stdin(
        &[
            "--mode",
            "normalize",
            "--level",
            "scheme",
            "--idn",
            "unicode",
        ],
        b"http://xn--rsum-bpad.example.org/\n",
    );
    assert_eq!(stdout(&o), "http://résumé.example.org/\n");
    let o = run_stdin(
        &["--mode", "normalize", "--as-uri"],
        "http://a/ros%C3%A9/./x\n".as_bytes(),
    );
    assert_eq!(stdout(&o), "http://a/ros%C3%A9/x\n");
    // Rung flags belong to normalize mode.
    let o = bin().args(["--nfc"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn base_and_base_field_resolution() {
    // RFC 3986 §5.4.1 examples, then to-uri (the default mode) on the result.
    let o = run_stdin(
        &["--base", "http://a/b/c/d;p?q"],
        "g\n../g\n?y\n#s\ng:h\n/ü\n".as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?y\nhttp://a/b/c/d;p?q#s\ng:h\nhttp://a/%C3%BC\n"
    );
    let o = run_stdin(
        &["--field", "2", "--base-field", "1"],
        "http://a/b/c\t../x/ü\tkeep\nhttp://h/\t//o/p\tk\n".as_bytes(),
    );
    assert_eq!(
        stdout(&o),
        "http://a/b/c\thttp://a/x/%C3%BC\tkeep\nhttp://h/\thttp://o/p\tk\n"
    );
    let o = bin()
        .args(["--base-field", "1"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "--base-field needs --field");
}

/// A segment that `..` removes in resolution (RFC 3986 §5.2.4) is still read by the mode: a
/// bad byte there is the line's error at its column, in every mode, with `--base` and with
/// `--base-field` (found by a QA sweep: `\xFF/../x` was written `http://a/b/x`, exit 0).
#[test]
fn segments_removed_by_resolution_are_still_checked() {
    let input = b"\xFF/../x\na\x00b/../x\n%zz/../x\nok/../x\nq/\x7F/./../z\n";
    for mode in ["to-uri", "to-iri", "check", "normalize", "leiri-to-iri"] {
        let o = run_stdin(
            &[
                "-q",
                "--mode",
                mode,
                "--base",
                "http://a/b/c",
                "--errors",
                "-",
            ],
            input,
        );
        let rows: Vec<Vec<String>> = report_rows(&stderr(&o))
            .iter()
            .filter(|r| r.len() > 4 && r[0] == "-")
            .map(|r| r[1..4].iter().map(|x| x.to_string()).collect())
            .collect();
        let want: &[[&str; 3]] = if mode == "leiri-to-iri" {
            // leiri-to-iri encodes controls (3987bis §6.3) and leaves `%` alone.
            &[["1", "1", "invalid-utf8"]]
        } else {
            &[
                ["1", "1", "invalid-utf8"],
                ["2", "2", "control-char"],
                ["3", "1", "bad-percent"],
                ["5", "3", "control-char"],
            ]
        };
        let want: Vec<Vec<String>> = want
            .iter()
            .map(|r| r.iter().map(|x| x.to_string()).collect())
            .collect();
        assert_eq!(rows, want, "{mode}: {}", stderr(&o));
        assert!(stdout(&o).contains("http://a/b/x"), "{mode}: line 4");
    }
    let o = run_stdin(
        &["-q", "--field", "2", "--base-field", "1", "--errors", "-"],
        b"http://a/b\t\x7F/../x\n",
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).contains("-\t1\t12\tcontrol-char"),
        "{}",
        stderr(&o)
    );
    // A base field with an error is `bad-base` at its byte, even where `..` removes it.
    let o = run_stdin(
        &["-q", "--field", "2", "--base-field", "1", "--errors", "-"],
        "http://a/%zz/c\tx\nhttp://a/b\x01/\t../x\nhttp://a/b c/\tx\nhttp://127\u{3002}1/\tx\n"
            .as_bytes(),
    );
    let rows: Vec<String> = report_rows(&stderr(&o))
        .iter()
        .map(|r| r[1..4].join(" "))
        .collect();
    // `http://127。1/`: the host check of the base's own conversion, at its host (it was the
    // reference's `ambiguous-ipv4`; found by a QA sweep).
    assert_eq!(
        rows,
        ["1 10 bad-base", "2 11 bad-base", "4 8 bad-base"],
        "{}",
        stderr(&o)
    );
    assert!(
        stdout(&o).contains("\thttp://a/b%20c/x\n"),
        "{}",
        stdout(&o)
    );
    // The message names the fault, as `--base` does (a QA sweep: every bad base read "no
    // valid scheme", a spoofing base too).
    let o = run_stdin(
        &["-q", "--field", "2", "--base-field", "1", "--errors", "-"],
        b"https://good.com\\@evil.com/\tx\nnoscheme\tx\nhttp://a/%zz\tx\n",
    );
    let messages: Vec<String> = report_rows(&stderr(&o))
        .iter()
        .map(|r| r[4].to_string())
        .collect();
    let tails = [
        ": backslash-authority ('\\' in the authority",
        ": no valid scheme such as http:",
        ": bad-percent ('%' not followed by two hex digits)",
    ];
    assert_eq!(messages.len(), 3, "{}", stderr(&o));
    // IDNA's reason too (a later sweep: "idna (IDNA failed)" alone).
    let o = run_stdin(
        &["-q", "--field", "2", "--base-field", "1", "--errors", "-"],
        "http://\u{202E}evil.com/\tx\n".as_bytes(),
    );
    let err = stderr(&o);
    let rows = report_rows(&err);
    assert_eq!(rows.len(), 1, "{err}");
    assert!(
        rows[0][4].ends_with(
            ": idna (IDNA failed: UTS #46 ToASCII: label 1: disallowed code point U+202E)"
        ),
        "{:?}",
        rows[0]
    );
    // Under `--strict` the host mapping's warnings are the base's errors, at its byte, as
    // they would fail every line (a later sweep: reported at the reference's column), and a
    // `--base` with one is refused before reading.
    let o = run_stdin(
        &[
            "-q",
            "--strict",
            "--field",
            "2",
            "--base-field",
            "1",
            "--errors",
            "-",
        ],
        "http://a.com\u{200B}/\tx\n".as_bytes(),
    );
    let err = stderr(&o);
    let rows = report_rows(&err);
    assert_eq!(rows.len(), 1, "{err}");
    assert_eq!(rows[0][2..4], ["13", "bad-base"], "{:?}", rows[0]);
    assert!(
        rows[0][4].contains(": host-char-removed ("),
        "{:?}",
        rows[0]
    );
    let o = run_stdin(
        &["-q", "--strict", "--base", "http://a.com\u{200B}/"],
        b"x\n",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("host-char-removed at byte 13"),
        "{}",
        stderr(&o)
    );
    for (m, tail) in messages.iter().zip(tails) {
        assert!(
            m.starts_with(
                "the record's base (--base-field) is not an absolute IRI that to-uri accepts"
            ),
            "{m}"
        );
        assert!(m.contains(tail), "{m} / {tail}");
    }
}

#[test]
fn bench_subcommand_formats_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("costs.svg");
    let o = bin()
        .args(["bench", "--runs", "1", "--in"])
        .arg(sample_path())
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let t = stdout(&o);
    for s in [
        "plain line copy",
        "rung: case",
        "rung: nfkc",
        "ladder: + idn",
        "convert: to-uri",
        "convert: to-iri",
        "ns/line",
        "MB/s",
    ] {
        assert!(t.contains(s), "{s} missing in\n{t}");
    }
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let o = bin()
        .args(["bench", "--runs", "1", "--format", "csv", "--in"])
        .arg(sample_path())
        .output()
        .unwrap();
    assert!(stdout(&o).starts_with("operation,ns_per_line,mb_per_s,changed_share,errors,vs_copy\n"));
    let o = bin()
        .args(["bench", "--runs", "1", "--format", "json", "--in"])
        .arg(sample_path())
        .output()
        .unwrap();
    assert!(stdout(&o).trim_start().starts_with("[{"));
    let o = bin()
        .args(["bench", "--in", "/nonexistent"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

/// `bench --plot` naming the input would replace it with the chart (found by a QA sweep):
/// a usage error before anything is measured, the input untouched; `--plot -` writes the
/// chart to stdout and the table to stderr.
#[test]
fn bench_plot_is_not_the_input_and_dash_is_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("urls.txt");
    let data = b"http://x/\xc3\xbc\nhttp://y/\n";
    std::fs::write(&input, data).unwrap();
    for plot in [input.clone(), dir.path().join(".").join("urls.txt")] {
        let o = bin()
            .args(["bench", "--runs", "1", "--in"])
            .arg(&input)
            .arg("--plot")
            .arg(&plot)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("is the input file"), "{}", stderr(&o));
        assert_eq!(stdout(&o), "");
        assert_eq!(std::fs::read(&input).unwrap(), data);
    }
    let o = bin()
        .current_dir(dir.path())
        .args(["bench", "--runs", "1", "--plot", "-", "--in"])
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("<svg"), "{}", stdout(&o));
    assert!(stdout(&o).contains("median of 1 run per row"));
    assert!(stderr(&o).contains("convert: to-uri"), "{}", stderr(&o));
    assert!(!dir.path().join("-").exists());
}

/// A stdout closed when iribulk starts (`>&-`) becomes `/dev/null` read-write (the Rust
/// runtime opens it so): the output would vanish without a word, so iribulk warns. A shell's
/// `>/dev/null` (write-only) and `--out FILE` do not warn.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.txt");
    let sh = |redirect: &str, extra: &str| {
        let script = format!("exec \"$0\" -q --exit-zero --in \"$1\" {extra} {redirect}");
        Command::new("sh")
            .args(["-c", &script])
            .arg(env!("CARGO_BIN_EXE_iribulk"))
            .arg(sample_path())
            .output()
            .unwrap()
    };
    let closed = sh(">&-", "");
    assert!(closed.status.success(), "{}", stderr(&closed));
    assert!(
        stderr(&closed).contains("a closed stdout (>&-)"),
        "{}",
        stderr(&closed)
    );
    let devnull = sh(">/dev/null", "");
    assert!(devnull.status.success());
    assert_eq!(stderr(&devnull), "");
    let to_file = sh(">&-", &format!("--out {}", out.display()));
    assert!(to_file.status.success(), "{}", stderr(&to_file));
    assert_eq!(stderr(&to_file), "");
    assert!(std::fs::metadata(&out).unwrap().len() > 0);
    // The report or the summary on a closed stdout is lost as the lines would be (they were
    // lost without a word: a QA sweep); each is named.
    for (extra, what) in [
        ("--errors -", "the error report (--errors -) would be lost"),
        (
            "--errors /dev/stdout",
            "the error report (--errors /dev/stdout) would be lost",
        ),
        (
            "--errors /dev/fd/1",
            "the error report (--errors /dev/fd/1) would be lost",
        ),
        (
            "--stats-file -",
            "the summary (--stats-file -) would be lost",
        ),
        (
            "--stats-file /dev/stdout",
            "the summary (--stats-file /dev/stdout) would be lost",
        ),
    ] {
        let o = sh(">&-", &format!("--out {} {extra}", out.display()));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(what), "{extra}: {}", stderr(&o));
        let o = sh(">/dev/null", &format!("--out {} {extra}", out.display()));
        assert!(
            !stderr(&o).contains("would be lost"),
            "{extra}: {}",
            stderr(&o)
        );
    }
}

/// A stderr that cannot be written (`2>/dev/full`) is an I/O error, status 1, not a panic
/// (status 101, found by a QA sweep): for the summary and for a report sent to stderr. A
/// report sent to stdout names itself in the message when stdout fails.
#[cfg(target_os = "linux")]
#[test]
fn a_failing_stderr_is_status_1_not_a_panic() {
    let full = || {
        Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    // Runs iribulk on one bad line with these stdout and stderr.
    let run = |args: &[&str], out: Stdio, err: Stdio| {
        let mut c = bin()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap();
        c.stdin
            .take()
            .unwrap()
            .write_all(b"http://x/%zz\n")
            .unwrap();
        c.wait_with_output().unwrap()
    };
    for args in [
        &["-q", "--errors", "-"][..],
        &[][..],
        &["--stats", "json"][..],
    ] {
        let o = run(args, Stdio::null(), full());
        assert_eq!(o.status.code(), Some(1), "{args:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.txt");
    let out = out.to_str().unwrap();
    let o = run(
        &["-q", "--out", out, "--errors", "/dev/full"],
        Stdio::null(),
        Stdio::piped(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("'/dev/full'"), "{}", stderr(&o));
    let o = run(
        &["-q", "--out", out, "--errors", "-"],
        full(),
        Stdio::piped(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot write error report '-' (stdout)"),
        "{}",
        stderr(&o)
    );
}

/// `--errors` or `--stats-file` naming a descriptor held for reading only (`--errors
/// /dev/stdin < f`) is refused before any input is read, status 2, as a side file that
/// cannot be created; it was "Bad file descriptor", status 1, after the run (found by a QA
/// sweep).
#[cfg(target_os = "linux")]
#[test]
fn a_side_file_on_a_read_only_descriptor_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let held = dir.path().join("held.txt");
    std::fs::write(&held, "kept\n").unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "http://x/%zz\n").unwrap();
    for flag in ["--errors", "--stats-file"] {
        let o = bin()
            .args(["-q", "--in", input.to_str().unwrap(), flag, "/dev/stdin"])
            .stdin(std::fs::File::open(&held).unwrap())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("open for reading only") && o.stdout.is_empty(),
            "{flag}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&held).unwrap(), "kept\n");
    }
}

/// A stdout or stderr held for reading only (`1< f`, a pipe's read end): Rust's standard
/// streams take the write's "Bad file descriptor" for success, so every converted line
/// vanished with status 0 and "written N" in the summary (found by a QA sweep). Refused
/// before any input is read, status 2; `--out /dev/fd/3` on a read-only descriptor too.
#[cfg(target_os = "linux")]
#[test]
fn a_read_only_stdout_or_stderr_is_refused_not_a_silent_loss() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, "http://ex.com/ü\n".repeat(1000)).unwrap();
    let held = dir.path().join("held.txt");
    std::fs::write(&held, "kept\n").unwrap();
    let ro = || Stdio::from(std::fs::File::open(&held).unwrap());
    let i = input.to_str().unwrap();
    let o = dir.path().join("out.txt");
    let o = o.to_str().unwrap();
    // stdout as the output, the report's or the summary's stream.
    for args in [
        &["--in", i][..],
        &[
            "-q",
            "--in",
            i,
            "--out",
            o,
            "--errors",
            "-",
            "--on-error",
            "skip",
        ][..],
        &["-q", "--in", i, "--out", o, "--stats-file", "-"][..],
    ] {
        let r = bin()
            .args(args)
            .stdout(ro())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", stderr(&r));
        assert!(stderr(&r).contains("standard output is open for reading only"));
    }
    // stderr carrying the report or the summary.
    for args in [&["-q", "--in", i, "--errors", "-"][..], &["--in", i][..]] {
        let r = bin()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(ro())
            .output()
            .unwrap();
        assert_eq!(r.status.code(), Some(2), "{args:?}");
        assert!(r.stdout.is_empty());
    }
    // With -q and --out, stderr carries nothing: the run goes on.
    let r = bin()
        .args(["-q", "--in", i, "--out", o])
        .stderr(ro())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert_eq!(
        std::fs::read(o).unwrap().len(),
        1000 * "http://ex.com/%C3%BC\n".len()
    );
    // A read-only descriptor named by --out.
    let r = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "\"$0\" -q --in '{i}' --out /dev/fd/3 3< '{}'",
            held.display()
        ))
        .arg(env!("CARGO_BIN_EXE_iribulk"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(
        stderr(&r).contains("open for reading only"),
        "{}",
        stderr(&r)
    );
    assert_eq!(std::fs::read_to_string(&held).unwrap(), "kept\n");
}

/// A sysfs file says 4096 bytes and holds a line: read by `--in` (the kernel will not map
/// it: it was "No such device", status 1) and by stdin (held to its size, it was "truncated",
/// status 1), it is converted, found by a QA sweep. The file's size has not shrunk, so the
/// early end is its end.
#[cfg(target_os = "linux")]
#[test]
fn a_sysfs_file_is_read_by_path_and_by_stdin() {
    let f = std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled");
    let Ok(want) = std::fs::read(f) else {
        // A kernel or container without this file: nothing to read here (said, not silent).
        eprintln!("skipped: {} is not readable on this machine", f.display());
        return;
    };
    let by_path = bin()
        .args(["-q", "--mode", "check", "--in", f.to_str().unwrap()])
        .output()
        .unwrap();
    let by_stdin = bin()
        .args(["-q", "--mode", "check"])
        .stdin(std::fs::File::open(f).unwrap())
        .output()
        .unwrap();
    for r in [&by_path, &by_stdin] {
        assert!(matches!(r.status.code(), Some(0 | 3)), "{}", stderr(r));
        assert_eq!(r.stdout, want, "{}", stderr(r));
    }
}
