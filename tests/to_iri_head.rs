//! `ToIri::convert_with_head` (issue 11, tenth pass): to-iri takes the Guard's `LineHead` of
//! the line instead of splitting the head again and looking for `\` in every line. It must
//! answer exactly as `ToIri::convert_into` and as the naive twin `ToIri::new_naive` (the same
//! bytes, outcome and error) in every host mode: on every line of every data set and on its
//! to-uri form, on made lines for each branch, and on random lines.

mod common;

use iribulk::config::HostMode;
use iribulk::convert::to_iri::{ToIri, ToIriOptions};
use iribulk::{ToUri, ToUriOptions};
use proptest::prelude::*;

/// The host modes to-iri reads.
fn option_sets() -> Vec<ToIriOptions> {
    [
        HostMode::Auto,
        HostMode::Uts46,
        HostMode::IDNA2003,
        HostMode::Percent,
    ]
    .into_iter()
    .map(|host| ToIriOptions { host })
    .collect()
}

/// The converters of one option set: with the head, without, and the naive twin.
fn three(o: ToIriOptions) -> common::HeadTwins<ToIri> {
    common::HeadTwins {
        with_head: ToIri::new(o),
        into: ToIri::new(o),
        naive: ToIri::new_naive(o),
        ctx: format!("{o:?}"),
    }
}

const MADE: &[&str] = &[
    "",
    "http://xn--bcher-kva.de/stra%C3%9Fe?q=%C3%BC#%C3%A9",
    "http://u%C3%BC:p@xn--bcher-kva.de:80/x",
    "http://xn--bcher-kva.de:8x/x",
    "http://[::1]:80/%C3%A9",
    "http://[::1/%C3%A9",
    "http://a@b@c/%C3%A9",
    "https://good.com\\@evil.com/%C3%A9",
    "https://good.com/\\%C3%A9",
    "foo://g\\h/%C3%A9",
    "file://h\\x/%C3%A9",
    "//xn--bcher-kva.de/x",
    "http:xn--bcher-kva",
    "1http://%C3%A9",
    ":%C3%A9",
    "http://%C3%A9\t/x",
    "http://h\r/x\\y",
    "http://%C3%BC.de/%E2%88%95",
    "HTTP://XN--BCHER-KVA.DE/",
    "mailto:b%C3%BCcher@example.org",
    "http://xn--bcher-kva.de#a#b",
    "http://h/%zz",
    "http://h/%C3%A9%",
    "http://h/%E2%88%95x?%EF%BC%8F#%E3%83%8E",
    "http://h%41:80/%C3%A9",
    "http://h x:8/%C3%A9",
    "http://h\u{1}/%C3%A9",
    "http://u%41@h%2e:9#%C3%A9#",
    "http://h:/%C3%A9",
    "http://h:80",
    "//h%41:80/%C3%A9",
    "http://h]/%C3%A9",
    "http://\u{E9}.xn--p1ai/\u{E9}%C3%A9",
    "http://h?%EE%80%80#%EE%80%80",
];

#[test]
fn convert_with_head_equals_convert_into_and_naive_on_made_lines() {
    for o in option_sets() {
        three(o).same_on_made(MADE);
    }
}

#[test]
fn convert_with_head_equals_convert_into_and_naive_on_datasets() {
    // Every host mode on a stride of the lines, the default on every line; each line as it
    // is and in its to-uri form (what to-iri is for).
    let mut to_uri = ToUri::new(ToUriOptions::default());
    let to_uri_form = |line: &[u8]| {
        let mut uri = Vec::new();
        match to_uri.convert_into(line, &mut uri) {
            Ok(_) if !uri.is_empty() => Some(uri),
            _ => None,
        }
    };
    if let Some(lines) = common::heads_on_datasets(&option_sets(), three, to_uri_form) {
        // ~466,000 lines in the shared data sets (each also in its to-uri form).
        assert!(lines > 400_000, "{lines}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]
    #[test]
    fn convert_with_head_equals_convert_into_and_naive_on_random_lines(
        line in common::iri_strategy(),
        o in prop::sample::select(option_sets()),
    ) {
        let mut t = three(o);
        t.same(&line);
        let mut uri = Vec::new();
        let converted = ToUri::new(ToUriOptions::default()).convert_into(&line, &mut uri);
        if converted.is_ok() && !uri.is_empty() {
            t.same(&uri);
        }
    }
}
