//! `ToUri::convert_with_head` (issue 11, ninth pass): to-uri takes the Guard's `LineHead` of
//! the line instead of splitting the head again, and encodes an all-ASCII host with the port
//! and the path in one run of the block kernel. It must answer exactly as
//! `ToUri::convert_into` and as the naive twin `ToUri::new_naive` (the same bytes, outcome and
//! error), for every option that steps 2–4 read: on every line of every data set, on made
//! lines for each branch, and on random lines.

mod common;

use iribulk::config::{HostMode, InvalidUtf8, Repairs, ToUriOptions};
use iribulk::ToUri;
use proptest::prelude::*;

/// The option sets: every host mode, strict, LEIRI, invalid UTF-8 percent-encoded, the
/// fallback, and repairs (which convert another line: the head is then not used).
fn option_sets() -> Vec<ToUriOptions> {
    let mut v = Vec::new();
    for host in [
        HostMode::Auto,
        HostMode::Uts46,
        HostMode::IDNA2003,
        HostMode::Percent,
    ] {
        for flags in 0..8u8 {
            v.push(
                ToUriOptions::default()
                    .host(host)
                    .strict(flags & 1 != 0)
                    .leiri(flags & 2 != 0)
                    .invalid_utf8(if flags & 4 != 0 {
                        InvalidUtf8::Percent
                    } else {
                        InvalidUtf8::Error
                    }),
            );
        }
    }
    v.push(ToUriOptions::default().host_fallback_percent(true));
    v.push(ToUriOptions::default().repair(Repairs::ALL));
    v
}

/// The converters of one option set: with the head, without, and the naive twin.
fn three(o: ToUriOptions) -> common::HeadTwins<ToUri> {
    common::HeadTwins {
        with_head: ToUri::new(o),
        into: ToUri::new(o),
        naive: ToUri::new_naive(o),
        ctx: format!("{o:?}"),
    }
}

const MADE: &[&str] = &[
    "",
    "http://b\u{FC}cher.de/stra\u{DF}e?q=\u{FC}#\u{E9}",
    "http://u:p@b\u{FC}cher.de:80/x",
    "http://b\u{FC}cher.de:8x/x",
    "http://b\u{FC}cher.de:/x",
    "http://[::1]:80/\u{E9}",
    "http://[::1/\u{E9}",
    "http://a@b@c/\u{E9}",
    "https://good.com\\@evil.com/\u{E9}",
    "https://good.com/\\\u{E9}",
    "foo://g\\h/\u{E9}",
    "file://h\\x/\u{E9}",
    "//b\u{FC}cher.de/x",
    "http:b\u{FC}cher",
    "1http://\u{E9}",
    ":\u{E9}",
    "http://\u{E9}\t/x",
    "http://x\u{E9}\u{80}/",
    "http://\u{FF}\u{FE}/",
    "http://%C3%BC.de/\u{E9}",
    "HTTP://B\u{DC}CHER.DE/",
    "http://0123456789abcdefghij0123456789abcdefghij0123456789abcdefghij.b\u{FC}cher.de/\u{E9}",
    "http://u@0123456789abcdefghij0123456789abcdefghij0123456789abcdefghij.\u{E9}:1/",
    "mailto:b\u{FC}cher@example.org",
    "http://b\u{FC}cher.de#a#b",
    "http://b\u{FC}cher.de/%zz",
    "http://b\u{FC}cher.de/[x]",
    "http://h%41:80/\u{E9}",
    "http://h%4:80/\u{E9}",
    "http://h%/\u{E9}",
    "http://h%4",
    "http://h%4?\u{E9}",
    "http://h x:8/\u{E9}",
    "http://h\u{1}/\u{E9}",
    "http://h\u{7F}:/\u{E9}",
    "http://u%41@h%2e:9#\u{E9}#",
    "http://h:/\u{E9}",
    "http://h:80",
    "http://h<>\"{}|^`/\u{E9}",
    "//h%41:80/\u{E9}",
    "http://h]/\u{E9}",
    "http://h/\u{E9}\u{80}",
    "http://h?\u{E000}#\u{E000}",
];

#[test]
fn convert_with_head_equals_convert_into_and_naive_on_made_lines() {
    for o in option_sets() {
        three(o).same_on_made(MADE);
    }
}

#[test]
fn convert_with_head_equals_convert_into_and_naive_on_datasets() {
    // Every option set on a stride of the lines, the default options on every line.
    if let Some(lines) = common::heads_on_datasets(&option_sets(), three, |_| None) {
        assert!(lines > 1_000_000, "{lines}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]
    #[test]
    fn convert_with_head_equals_convert_into_and_naive_on_random_lines(
        line in common::iri_strategy(),
        o in prop::sample::select(option_sets()),
    ) {
        three(o).same(&line);
    }
}
