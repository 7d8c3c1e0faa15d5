//! A converter appends the same bytes whatever `out` already holds ([`Converter`]'s contract:
//! the result of one line is appended). The Python batch functions write rows back to back
//! into one buffer, with no line break between them: to-iri judged a decoded combining mark's
//! base by the byte before the line, so after the row `a` the row `%CC%81x` was shown with a
//! raw U+0301 on `a` (found by a QA sweep of the Python package). Every mode, after
//! prefixes that end in a letter, a mark, a `%HH`, a slash, a line break or nothing.

mod common;

use iribulk::{
    CheckOptions, Checker, Converter, Level, NormalizeOptions, Normalizer, Rungs, ToIri,
    ToIriOptions, ToUri, ToUriOptions,
};

fn converters() -> Vec<(String, Box<dyn Converter>)> {
    let mut v: Vec<(String, Box<dyn Converter>)> = vec![
        (
            "to-uri".into(),
            Box::new(ToUri::new(ToUriOptions::default())),
        ),
        (
            "to-iri".into(),
            Box::new(ToIri::new(ToIriOptions::default())),
        ),
        (
            "to-iri naive".into(),
            Box::new(ToIri::new_naive(ToIriOptions::default())),
        ),
        (
            "check".into(),
            Box::new(Checker::new(CheckOptions::default())),
        ),
    ];
    for level in [Level::String, Level::Syntax, Level::Scheme] {
        for as_uri in [false, true] {
            let opts = NormalizeOptions {
                rungs: Rungs::level(level),
                as_uri,
                ..NormalizeOptions::default()
            };
            v.push((
                format!("normalize {level:?} as_uri={as_uri}"),
                Box::new(Normalizer::new(opts)),
            ));
        }
    }
    v
}

/// The result of `line` alone, as bytes (the line itself on a pass-through), or the error.
fn alone(c: &mut dyn Converter, line: &[u8]) -> Result<Vec<u8>, (String, usize)> {
    let mut out = Vec::new();
    match c.convert_or_copy_into(line, &mut out) {
        Ok(_) => Ok(out),
        Err(e) => Err((e.kind.code().to_string(), e.offset)),
    }
}

fn lines() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        "%CC%81x",
        "\u{301}x",
        "%CC%B8",
        "x%CC%81",
        "/%CC%81x",
        "?q=%CC%B8",
        "%E0%A4%BF",
        "%D9%8B%D8%A7",
        "http://a/%CC%81x",
        "%E2%88%95x",
        "%41",
        "A",
        "\u{e9}",
        "e%CC%81",
        "%F0%93%90%B0",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    // A sample of every data set: the lines whose result could lean on what precedes them
    // are the ones with a mark or a `%`, but every line must be indifferent.
    if let Some(shared) = common::shared_dir() {
        for f in common::dataset_files(&shared) {
            let data = std::fs::read(&f).unwrap();
            v.extend(data.split(|&b| b == b'\n').step_by(97).map(<[u8]>::to_vec));
        }
    }
    v
}

#[test]
fn a_line_converts_alike_after_any_output() {
    let prefixes: [&[u8]; 8] = [
        b"",
        b"a",
        b"\n",
        b"/",
        b"%C3",
        b"x%2",
        "\u{e9}".as_bytes(),
        "a\u{301}".as_bytes(),
    ];
    let lines = lines();
    assert!(lines.len() > 1_000, "{}", lines.len());
    let mut failures = Vec::new();
    for (name, mut c) in converters() {
        for line in &lines {
            let want = alone(c.as_mut(), line);
            for p in prefixes {
                let mut out = p.to_vec();
                let got = match c.convert_or_copy_into(line, &mut out) {
                    Ok(_) => {
                        assert_eq!(&out[..p.len()], p, "{name}: the prefix is kept");
                        Ok(out[p.len()..].to_vec())
                    }
                    Err(e) => {
                        assert_eq!(out, p, "{name}: an error appends nothing");
                        Err((e.kind.code().to_string(), e.offset))
                    }
                };
                if got != want && failures.len() < 20 {
                    let show = |r: &Result<Vec<u8>, (String, usize)>| match r {
                        Ok(g) => String::from_utf8_lossy(g).into_owned(),
                        Err(e) => format!("{e:?}"),
                    };
                    failures.push(format!(
                        "{name}: {:?} after {:?}: {}, alone {}",
                        String::from_utf8_lossy(line),
                        String::from_utf8_lossy(p),
                        show(&got),
                        show(&want)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
