//! `iribulk bench` takes input as the main command does (gz, zst, `-`), and draws a chart that
//! an XML parser accepts, with an axis and a caption naming the machine, date, thread and runs.

// The command's own module, compiled into this test (it is not library API).
#[allow(dead_code)]
#[path = "../src/bin/iribulk/bench.rs"]
mod bench;
use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_iribulk"))
}

const DATA: &[u8] = "http://Example.COM:80/a/./b/%7e\nhttp://bücher.de/ü\n/x\n".as_bytes();

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

#[test]
fn bench_reads_gz_zst_and_stdin_like_the_main_command() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("in.txt.gz");
    std::fs::write(&gz, gzip(DATA)).unwrap();
    let zst = dir.path().join("in.txt.zst");
    std::fs::write(&zst, zstd::encode_all(DATA, 3).unwrap()).unwrap();
    let mut changed = Vec::new();
    for p in [&gz, &zst] {
        let o = bin()
            .args(["bench", "--runs", "1", "--format", "csv", "--in"])
            .arg(p)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        changed.push(String::from_utf8(o.stdout).unwrap());
    }
    // stdin, gzip-compressed, found by its magic bytes.
    let mut c = bin()
        .args(["bench", "--runs", "1", "--format", "json", "--in", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    c.stdin.take().unwrap().write_all(&gzip(DATA)).unwrap();
    let o = c.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let uri = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["operation"] == "convert: to-uri")
        .unwrap();
    // One line of three needs conversion: the decompressed text was measured, not gzip bytes.
    assert!((uri["changed_share"].as_f64().unwrap() - 1.0 / 3.0).abs() < 1e-9);
    // The same share of changed lines from .gz and .zst (the 4th CSV column).
    let share = |csv: &str| -> Vec<String> {
        csv.lines()
            .map(|l| l.rsplit(',').nth(2).unwrap().to_string())
            .collect()
    };
    assert_eq!(share(&changed[0]), share(&changed[1]));
}

#[test]
fn the_chart_is_xml_with_an_axis_and_a_caption() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("a<&>.txt");
    std::fs::write(&input, DATA).unwrap();
    let svg = dir.path().join("c.svg");
    let o = bin()
        .args(["bench", "--runs", "2", "--in"])
        .arg(&input)
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let texts: Vec<String> = root
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect();
    let all = texts.join("\n");
    assert!(all.contains("a<&>.txt"), "the input, escaped in XML: {all}");
    assert!(all.contains(&bench::cpu_model()), "{all}");
    let today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 86_400;
    assert!(
        all.contains(&bench::civil_date(today)) || all.contains(&bench::civil_date(today - 1)),
        "{all}"
    );
    assert!(
        all.contains("1 thread") && all.contains("median of 2 runs"),
        "{all}"
    );
    assert!(all.contains("ns per line"), "the axis has its unit: {all}");
    let ticks = root
        .descendants()
        .filter(|n| n.attribute("class") == Some("tick"))
        .count();
    assert!(ticks >= 3, "the axis has ticks: {ticks}");
    assert!(
        root.descendants()
            .any(|n| n.attribute("class") == Some("axis")),
        "an axis line"
    );
}
