//! Commands that README.md gives, run as a shell runs them: the CDX example on real CDX lines,
//! and the JSON summary example.

mod common;

use std::process::Command;

fn sh(script: &str, dir: &std::path::Path) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                std::path::Path::new(env!("CARGO_BIN_EXE_iribulk"))
                    .parent()
                    .unwrap()
                    .display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .unwrap()
}

/// CDX lines as the Wayback Machine and pywb write them (`CDX N b a m s k r M S V g`: SURT
/// key, timestamp, original URL, MIME type, status, digest, redirect, meta, length, offset,
/// file), with the header line.
const CDX: &str = " CDX N b a m s k r M S V g
com,example)/ 20240101000000 http://example.com/ü text/html 200 AAAABBBBCCCCDDDD - - 1043 338 crawl-00001.warc.gz
de,bücher)/straße 20240102101010 http://bücher.de/straße?q=é text/html 200 EEEEFFFFGGGGHHHH - - 2210 1381 crawl-00001.warc.gz
org,example)/a 20240103000000 http://example.org/a text/html 301 IIIIJJJJKKKKLLLL http://example.org/b - 512 3591 crawl-00002.warc.gz
";

#[test]
fn the_cdx_example_converts_the_url_column_only() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.cdx"), CDX).unwrap();
    // The command exactly as README.md writes it.
    let o = sh(
        "iribulk --in index.cdx --field 3 --delimiter ' ' --out index.uri.cdx",
        dir.path(),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = std::fs::read_to_string(dir.path().join("index.uri.cdx")).unwrap();
    let want = " CDX N b a m s k r M S V g
com,example)/ 20240101000000 http://example.com/%C3%BC text/html 200 AAAABBBBCCCCDDDD - - 1043 338 crawl-00001.warc.gz
de,bücher)/straße 20240102101010 http://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%A9 text/html 200 EEEEFFFFGGGGHHHH - - 2210 1381 crawl-00001.warc.gz
org,example)/a 20240103000000 http://example.org/a text/html 301 IIIIJJJJKKKKLLLL http://example.org/b - 512 3591 crawl-00002.warc.gz
";
    assert_eq!(out, want);
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains("iribulk --in index.cdx --field 3 --delimiter ' ' --out index.uri.cdx"),
        "README gives the command this test runs"
    );
    assert!(
        readme.contains("`com,example)/ 20240101000000 http://example.com/%C3%BC text/html 200 …`")
    );
}

#[test]
fn the_json_summary_example_keeps_data_and_numbers_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, b"http://a/\xC3\xBC\nhttp://a/%zz\n").unwrap();
    std::fs::write(dir.path().join("shard.gz"), gz.finish().unwrap()).unwrap();
    let cmd = "zcat shard.gz | iribulk --on-error skip --stats json --stats-file shard.stats.json > shard.uris";
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(cmd),
        "README gives the command this test runs"
    );
    let o = sh(&format!("set -e -o pipefail; {cmd}"), dir.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stderr.is_empty());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("shard.uris")).unwrap(),
        "http://a/%C3%BC\n"
    );
    let v: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("shard.stats.json")).unwrap())
            .unwrap();
    assert_eq!(
        (v["lines"].as_u64(), v["skipped"].as_u64()),
        (Some(2), Some(1))
    );
}

/// datasets/README.md says what `check` reports on the sample: the same lines and codes.
#[test]
fn datasets_readme_matches_what_check_reports_on_the_sample() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let rep = dir.path().join("check.tsv");
    let o = Command::new(env!("CARGO_BIN_EXE_iribulk"))
        .args(["-q", "--mode", "check", "--in"])
        .arg(format!("{root}/datasets/sample.txt"))
        .arg("--errors")
        .arg(&rep)
        .stdout(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3));
    let report = std::fs::read_to_string(&rep).unwrap();
    let rows: Vec<Vec<&str>> = common::report_rows(&report);
    let warnings: Vec<(u32, &str)> = rows
        .iter()
        .filter(|r| r[4].starts_with("warning:"))
        .map(|r| (r[1].parse().unwrap(), r[3]))
        .collect();
    let errors: Vec<(u32, &str)> = rows
        .iter()
        .filter(|r| !r[4].starts_with("warning:"))
        .map(|r| (r[1].parse().unwrap(), r[3]))
        .collect();
    assert_eq!(
        warnings,
        [
            (162, "compat-char"),
            (168, "compat-char"),
            (172, "joiner-context"),
            (184, "compat-char"),
            (200, "compat-char"),
            (201, "compat-char")
        ]
    );
    let repaired = [28, 64, 83, 125, 126, 131, 138, 222, 223, 224, 226, 306, 354];
    let bad = [30, 72, 109, 132, 188, 219, 235, 259, 283, 324, 338];
    let mut want: Vec<u32> = repaired.iter().chain(&bad).copied().collect();
    want.extend([335, 243, 247]);
    want.sort_unstable();
    assert_eq!(errors.iter().map(|e| e.0).collect::<Vec<_>>(), want);
    // Line 153's query is name/value components (RFC 3987 §4.2, contract item 13): valid.
    assert!(!errors.iter().any(|e| e.0 == 153) && errors.contains(&(335, "bidi-mixed")));
    // IPvFuture in an http URL: browsers refuse it (issue 16).
    assert!(errors.contains(&(243, "bad-ip-literal")) && errors.contains(&(247, "bad-ip-literal")));
    assert!(repaired
        .iter()
        .all(|l| errors.contains(&(*l, "disallowed-ascii"))));
    let readme = std::fs::read_to_string(format!("{root}/datasets/README.md")).unwrap();
    assert!(
        readme.contains("reports 33\nlines: 27 errors and 6 warnings"),
        "datasets/README.md"
    );
    assert!(readme.contains("line 335 (`bidi-mixed`"));
}

/// README's "Error codes" table lists every code of the error table, once, in the table's
/// order (`ErrorKind::ALL_CODES`), and its kind column agrees with each code's severity.
#[test]
fn readme_error_code_table_matches_the_error_table() {
    use iribulk::error::{ErrorKind, Severity};
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let section = readme
        .split("\n## Error codes\n")
        .nth(1)
        .expect("an Error codes section")
        .split("\n## ")
        .next()
        .unwrap();
    let rows: Vec<(&str, &str)> = section
        .lines()
        .filter_map(|l| {
            let mut cells = l.strip_prefix("| `")?.splitn(2, "` | ");
            let code = cells.next()?;
            let kind = cells.next()?.split(" | ").next()?;
            Some((code, kind))
        })
        .collect();
    let codes: Vec<&str> = rows.iter().map(|r| r.0).collect();
    assert_eq!(codes, ErrorKind::ALL_CODES, "README error-code table");
    for (code, kind) in rows {
        let sev = ErrorKind::severity_of_code(code).unwrap();
        let ok = match sev {
            Severity::Error => kind.starts_with("error"),
            Severity::Warning => kind.starts_with("warning"),
            Severity::Repair => kind.starts_with("error (`--strict`)"),
        };
        assert!(ok, "{code}: README says {kind:?}, the table {sev:?}");
    }
}
