//! Exit status as shell scripts see it (`set -e`, pipelines with `pipefail`), `--exit-zero`,
//! the summary for machines (`--stats json`, `--stats-file`), `--version`, and the hint on a
//! TAB without `--field`.

mod common;
use common::run_stdin;
use std::process::Command;

fn bin_path() -> &'static str {
    env!("CARGO_BIN_EXE_iribulk")
}

fn bin() -> Command {
    Command::new(bin_path())
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A line with an error (bad-percent), a clean line, a repaired line (a space) and a line
/// with a warning only in check (a compatibility character).
const MIXED: &[u8] = "http://a/%zz\nhttp://a/ok\nhttp://a/b c\nhttp://a/ＡＢ\n".as_bytes();

#[test]
fn status_follows_what_was_asked() {
    let cases: &[(&[&str], &[u8], i32)] = &[
        (&[], b"http://a/ok\n", 0),
        // Repairs and warnings alone give 0.
        (&[], b"http://a/b c\n", 0),
        (&["--mode", "check"], "/ＡＢ\n".as_bytes(), 0),
        // A bad line kept as it was: 3.
        (&[], MIXED, 3),
        (&["--on-error", "keep"], MIXED, 3),
        (&["--mode", "check"], MIXED, 3),
        // Dropped or filtered as asked: 0.
        (&["--on-error", "skip"], MIXED, 0),
        (&["--mode", "check", "--valid-only"], MIXED, 0),
        (&["--mode", "check", "--invalid-only"], MIXED, 0),
        // Stopped early: 3.
        (&["--on-error", "fail"], MIXED, 3),
        // --exit-zero: line-level problems never change the status.
        (&["--exit-zero"], MIXED, 0),
        // ... but a run stopped by --on-error fail (its --out left as it was) is no success:
        // the two together are a usage error (found by a QA sweep).
        (&["--exit-zero", "--on-error", "fail"], MIXED, 2),
        // A line over the cap is an error line like the others.
        (&["--max-line-bytes", "8"], b"http://a/long\n", 3),
        (
            &["--max-line-bytes", "8", "--on-error", "skip"],
            b"http://a/long\n",
            0,
        ),
        // Usage: 2, also with --exit-zero.
        (&["--exit-zero", "--nfc"], b"", 2),
    ];
    for (args, input, want) in cases {
        let mut a = vec!["-q"];
        a.extend_from_slice(args);
        let o = run_stdin(&a, input);
        assert_eq!(o.status.code(), Some(*want), "{args:?}: {}", stderr(&o));
    }
    // Fatal: 1, also with --exit-zero.
    let o = bin()
        .args(["--exit-zero", "--in", "/nonexistent/in.txt"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
}

fn bash(script: &str) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("IRIBULK", bin_path())
        .output()
        .unwrap()
}

#[test]
fn set_e_scripts_and_pipelines() {
    // The common crawl pattern: drop bad lines, go on with the script.
    let o = bash(
        r#"set -euo pipefail
        printf 'http://a/%%zz\nhttp://a/ü\n' | "$IRIBULK" -q --on-error skip | wc -l > /dev/null
        printf 'http://a/%%zz\nhttp://a/ü\n' | "$IRIBULK" -q --mode check --valid-only > /dev/null
        n=$(printf 'http://a/%%zz\nhttp://a/ü\n' | "$IRIBULK" -q --exit-zero | wc -l)
        echo "reached $n""#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "reached 2");
    // Bad lines kept as they were: the script stops with 3 (set -e sees it through pipefail).
    let o = bash(
        r#"set -euo pipefail
        printf 'http://a/%%zz\n' | "$IRIBULK" -q | cat > /dev/null
        echo "not reached""#,
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    // Hadoop Streaming / Spark pipe style: a mapper that must never fail on data.
    let o = bash(
        r#"set -e
        printf 'x\tk\nhttp://a/%%zz\n' | "$IRIBULK" -q --field 1 --exit-zero --on-error keep
        echo "status $?""#,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).ends_with("status 0\n"));
}

#[test]
fn stats_json_to_a_file_or_stdout_and_explicit_stats_beats_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let stats = dir.path().join("stats.json");
    let out = dir.path().join("out.txt");
    let o = bin()
        .args(["--stats", "json", "--stats-file"])
        .arg(&stats)
        .arg("--out")
        .arg(&out)
        .args(["--in", "-"])
        .stdin(std::fs::File::open(write(dir.path(), "in.txt", MIXED)).unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    assert!(
        o.stderr.is_empty(),
        "the summary went to the file: {}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    assert_eq!(v["lines"], 4);
    assert_eq!(v["written"], 4);
    assert_eq!(v["error_lines"], 1);
    assert_eq!(v["by_code"]["bad-percent"], 1);
    assert_eq!(v["stopped_at_error"], false);

    // `--stats-file -`: stdout, when the output is a file.
    let o = bin()
        .args([
            "--stats",
            "json",
            "--stats-file",
            "-",
            "--on-error",
            "skip",
            "--out",
        ])
        .arg(&out)
        .arg("--in")
        .arg(dir.path().join("in.txt"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["skipped"], 1);
    assert_eq!(
        std::fs::read(&out)
            .unwrap()
            .iter()
            .filter(|&&b| b == b'\n')
            .count(),
        3
    );
    // ... and a usage error when stdout carries the output.
    let o = run_stdin(&["--stats-file", "-"], b"http://a/\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--stats-file"), "{}", stderr(&o));

    // ... and when the error report also goes to stdout.
    let o = bin()
        .args(["--stats-file", "-", "--errors", "-", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("both write to stdout"),
        "{}",
        stderr(&o)
    );
    // An explicit --stats beats -q; -q alone prints nothing.
    let o = run_stdin(&["-q", "--stats", "json"], b"http://a/\n");
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).unwrap();
    assert_eq!(v["lines"], 1);
    let o = run_stdin(&["--stats", "text", "--quiet"], b"http://a/\n");
    assert!(
        stderr(&o).contains("1 lines") || stderr(&o).contains("1 line"),
        "{}",
        stderr(&o)
    );
    let o = run_stdin(&["-q"], b"http://a/\n");
    assert!(o.stderr.is_empty());
}

fn write(dir: &std::path::Path, name: &str, data: &[u8]) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

#[test]
fn version_names_the_simd_level_and_the_build() {
    let o = bin().arg("--version").output().unwrap();
    assert!(o.status.success());
    let v = String::from_utf8_lossy(&o.stdout);
    assert!(
        v.starts_with(&format!("iribulk {}", env!("CARGO_PKG_VERSION"))),
        "{v}"
    );
    let simd = v
        .lines()
        .find_map(|l| l.strip_prefix("simd: "))
        .unwrap_or_else(|| panic!("no simd line: {v}"));
    let want = match iribulk::simd::Impl::best() {
        iribulk::simd::Impl::Avx512 => "AVX-512",
        iribulk::simd::Impl::Avx2 => "AVX2",
        iribulk::simd::Impl::Sse2 => "SSE2",
        iribulk::simd::Impl::Scalar => "scalar",
    };
    assert!(simd.starts_with(want), "{v}");
    assert!(v.contains("\nbuild: ") && v.contains("\nunicode: "), "{v}");
    // Issue 16: the Unicode versions of the IDNA tables.
    let (a, b, c) = iribulk::host::UTS46_UNICODE_VERSION;
    assert!(
        v.contains(&format!(
            "\nidna: UTS #46 tables Unicode {a}.{b}.{c} (idna crate), IDNA2003 Nameprep Unicode 3.2.0"
        )),
        "{v}"
    );
}

/// Runs the CLI with `args` (`-q` first) on `input`, written to `dir/name`, with the report in
/// `dir/r.tsv`: the exit status and the report.
fn run_report(
    dir: &std::path::Path,
    args: &[&str],
    name: &str,
    input: &[u8],
) -> (Option<i32>, String) {
    let rep = dir.join("r.tsv");
    let o = bin()
        .arg("-q")
        .args(args)
        .arg("--in")
        .arg(write(dir, name, input))
        .arg("--errors")
        .arg(&rep)
        .output()
        .unwrap();
    (o.status.code(), std::fs::read_to_string(&rep).unwrap())
}

#[test]
fn a_tab_without_field_gets_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    let input = b"http://a/\t200\nhttp://a/\x01\n";
    let (code, r) = run_report(dir.path(), &[], "in.tsv", input);
    assert_eq!(code, Some(3));
    let rows: Vec<&str> = r.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{r}");
    assert!(rows[0].contains("did you mean --field"), "{r}");
    assert!(
        !rows[1].contains("--field"),
        "a control byte that is not a TAB: no hint: {r}"
    );
    // With --field the TAB is a delimiter: no error, no hint.
    let (code, r) = run_report(dir.path(), &["--field", "1"], "in.tsv", input);
    assert_eq!(code, Some(3));
    assert!(!r.contains("did you mean"), "{r}");
    // With --field and another delimiter, a TAB inside the field is an error, without the
    // hint that asks for --field (found by a QA sweep).
    let args = ["--field", "2", "--delimiter", ","];
    let (code, r) = run_report(dir.path(), &args, "in.csv", b"a,http://x/\ty\n");
    assert_eq!(code, Some(3));
    assert!(r.contains("\tcontrol-char\t"), "{r}");
    assert!(!r.contains("did you mean"), "{r}");
}

/// The two readings of a host-integrity row name the hosts of the converted field, not of
/// the whole record (whose first field `k` a browser would take for the URL's start: the row
/// said "a browser reads host k\x09http"; found by a QA sweep).
#[test]
fn readings_are_those_of_the_field() {
    let dir = tempfile::tempdir().unwrap();
    for (args, input, want) in [
        (
            &["--field", "3", "--base-field", "2"][..],
            &b"k\thttp://h/p\t\\\\evil/\n"[..],
            "a browser reads host evil\t",
        ),
        (
            &["--field", "2"][..],
            &b"k\thttp:///evil.com/\n"[..],
            "RFC 3986 reads no host, a browser reads host evil.com\t",
        ),
        (
            &["--field", "2"][..],
            &b"k\thttps://good.com\\@evil.com/\n"[..],
            "a browser reads host good.com, RFC 3986 reads host evil.com\t",
        ),
    ] {
        let (code, r) = run_report(dir.path(), args, "in.tsv", input);
        assert_eq!(code, Some(3));
        assert!(r.contains("; on this line: ") && r.contains(want), "{r}");
    }
}
