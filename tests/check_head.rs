//! `Checker::convert_with_head` (issue 11): `check` hands the Guard's `LineHead` of the line
//! (`LineHead::of`, or `LineHead::crawl` for the common crawl line) to its strict conversion,
//! which then neither splits the scheme and authority again nor searches for `\` where the head
//! proves there is none. It must answer exactly as `Checker::convert_into` and as the naive
//! twin `Checker::new_naive` (the same outcome, warnings and error; `out` untouched), for every
//! option check reads: on every line of every data set, on made lines, and on random lines.

mod common;

use iribulk::config::{HostMode, ToUriOptions};
use iribulk::convert::check::{CheckOptions, Checker};
use proptest::prelude::*;

/// The option sets: every host mode, `--uri`, strict.
fn option_sets() -> Vec<CheckOptions> {
    let mut v = Vec::new();
    for host in [
        HostMode::Auto,
        HostMode::Uts46,
        HostMode::IDNA2003,
        HostMode::Percent,
    ] {
        for uri_only in [false, true] {
            v.push(CheckOptions {
                to_uri: ToUriOptions::default().host(host),
                uri_only,
            });
        }
    }
    v.push(CheckOptions {
        to_uri: ToUriOptions::default().strict(true),
        uri_only: false,
    });
    v
}

/// The checkers of one option set: with the head, without, and the naive twin.
fn three(o: CheckOptions) -> common::HeadTwins<Checker> {
    common::HeadTwins {
        with_head: Checker::new(o),
        into: Checker::new(o),
        naive: Checker::new_naive(o),
        ctx: format!("{:?} uri_only={}", o.to_uri, o.uri_only),
    }
}

const MADE: &[&str] = &[
    "",
    "http://b\u{FC}cher.de/stra\u{DF}e?q=\u{FC}#\u{E9}",
    "https://example.org/\u{5D0}\u{5D1}/\u{627}\u{644}",
    "https://example.org/a\u{200E}b",
    "http://example.org/\u{E000}?\u{E000}",
    "http://u:p@b\u{FC}cher.de:80/x",
    "http://[::1]:80/\u{E9}",
    "https://good.com\\@evil.com/\u{E9}",
    "https://good.com/\\\u{E9}",
    "https://good.com/a\tb",
    "https://good.com/x ",
    "http://a.b?\u{E9}#\u{E9}#",
    "http://a.b/%zz\u{E9}",
    "http://a.b/%41\u{E9}",
    "http://xn--bcher-kva.de/\u{E9}",
    "http://xn--zz.de/\u{E9}",
    "http://EXAMPLE.org/\u{FF0E}",
    "http://a_b.example/\u{E9}",
    "http://-a.example/\u{E9}",
    "http://a!$&'()*+,;=.example/\u{E9}",
    "http://0x7f.1/\u{E9}",
    "ftp://h/\u{E9}",
    "file:///\u{E9}",
];

#[test]
fn check_with_head_equals_convert_into_and_naive_on_made_lines() {
    for o in option_sets() {
        three(o).same_on_made(MADE);
    }
}

#[test]
fn check_with_head_equals_convert_into_and_naive_on_datasets() {
    if let Some(lines) = common::heads_on_datasets(&option_sets(), three, |_| None) {
        assert!(lines > 500_000, "{lines}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]
    #[test]
    fn check_with_head_equals_convert_into_and_naive_on_random_lines(
        line in common::iri_strategy(),
        o in prop::sample::select(option_sets()),
    ) {
        three(o).same(&line);
    }
}
