//! Criterion benchmarks of the legacy-charset path (issue 12), per line, like for like.
//!
//! The lines of `../shared/datasets/intl_cldr.txt` (IRIs in many scripts) and
//! `../shared/datasets/real_files_and_shortener.txt` (mostly ASCII) are encoded here, at bench
//! time, in windows-1252 and Shift_JIS with `encoding_rs`; a line the charset cannot represent
//! is skipped (the counts are printed). Then, on the same lines:
//!
//! * `charset_convert/<data>/utf-8`: [`ToUri::convert_into`] on the UTF-8 originals;
//! * `charset_convert/<data>/<charset>`: [`LegacyConverter::convert_into`] on the encoded lines
//!   (ASCII lines go straight to [`ToUri`], as the engine's fast path keeps them);
//! * `charset_convert_nonascii/...`: the same on the non-ASCII lines only;
//! * `charset_decode/<data>/<charset>`: [`Charset::decode_line`] alone on the non-ASCII lines,
//!   and `<charset>/encoding_rs-only`: the bare `encoding_rs` decoder on them (no NFC check).
//!
//! Throughput is in input bytes (of the encoded lines for the legacy rows, of the UTF-8 lines for
//! the `utf-8` rows). Run with `cargo bench --bench charset`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use iribulk::charset::{Charset, LegacyConverter, LegacyOptions};
use iribulk::{InvalidUtf8, ToUri, ToUriOptions};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const DATA: &[&str] = &["intl_cldr.txt", "real_files_and_shortener.txt"];
const CHARSETS: &[&str] = &["windows-1252", "shift_jis"];

/// The lines of `text` that `cs` can represent: (UTF-8 original, encoded), and how many could
/// not be.
fn encode_lines(text: &str, cs: Charset) -> (Vec<(String, Vec<u8>)>, usize) {
    let mut kept = Vec::new();
    let mut skipped = 0;
    for line in text.lines() {
        let (bytes, _, unmappable) = cs.encoding().encode(line);
        if unmappable {
            skipped += 1;
        } else {
            kept.push((line.to_string(), bytes.into_owned()));
        }
    }
    (kept, skipped)
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    for name in DATA {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            eprintln!(
                "charset bench: {} missing, skipped",
                dir.join(name).display()
            );
            continue;
        };
        for label in CHARSETS {
            let cs = Charset::for_label(label.as_bytes()).expect("label");
            let (lines, skipped) = encode_lines(&text, cs);
            let nonascii: Vec<_> = lines
                .iter()
                .filter(|(u, _)| !u.is_ascii())
                .cloned()
                .collect();
            eprintln!(
                "charset bench: {name} in {label}: {} lines kept ({} non-ASCII), {skipped} not representable, skipped",
                lines.len(),
                nonascii.len()
            );
            for (group, set) in [
                ("charset_convert", &lines),
                ("charset_convert_nonascii", &nonascii),
            ] {
                if set.is_empty() {
                    continue;
                }
                let mut g = c.benchmark_group(format!("{group}/{name}/{label}"));
                g.sample_size(10)
                    .measurement_time(Duration::from_secs(3))
                    .warm_up_time(Duration::from_secs(1));
                let utf8_bytes: usize = set.iter().map(|(u, _)| u.len() + 1).sum();
                let enc_bytes: usize = set.iter().map(|(_, e)| e.len() + 1).sum();
                g.throughput(Throughput::Bytes(utf8_bytes as u64));
                g.bench_function("utf-8", |b| {
                    let mut conv = ToUri::new(ToUriOptions::default());
                    let mut out = Vec::with_capacity(1 << 16);
                    b.iter(|| {
                        for (u, _) in set.iter() {
                            out.clear();
                            let _ = black_box(conv.convert_into(u.as_bytes(), &mut out));
                        }
                    })
                });
                g.throughput(Throughput::Bytes(enc_bytes as u64));
                g.bench_function(*label, |b| {
                    let mut conv = LegacyConverter::new(cs, LegacyOptions::default());
                    let mut out = Vec::with_capacity(1 << 16);
                    b.iter(|| {
                        for (_, e) in set.iter() {
                            out.clear();
                            let _ = black_box(conv.convert_into(e, &mut out));
                        }
                    })
                });
                g.finish();
            }
            if nonascii.is_empty() {
                continue;
            }
            let mut g = c.benchmark_group(format!("charset_decode/{name}"));
            g.sample_size(10)
                .measurement_time(Duration::from_secs(3))
                .warm_up_time(Duration::from_secs(1));
            let enc_bytes: usize = nonascii.iter().map(|(_, e)| e.len() + 1).sum();
            g.throughput(Throughput::Bytes(enc_bytes as u64));
            g.bench_function(*label, |b| {
                let mut s = String::new();
                b.iter(|| {
                    for (_, e) in nonascii.iter() {
                        let _ = black_box(cs.decode_line(e, InvalidUtf8::Error, &mut s));
                    }
                })
            });
            g.bench_function(format!("{label}/encoding_rs-only"), |b| {
                let mut s = String::new();
                b.iter(|| {
                    for (_, e) in nonascii.iter() {
                        s.clear();
                        s.reserve(e.len() * 3);
                        let mut d = cs.encoding().new_decoder_without_bom_handling();
                        let _ = black_box(d.decode_to_string_without_replacement(e, &mut s, true));
                    }
                })
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
