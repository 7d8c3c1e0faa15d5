//! `bad-ace`'s fast path (issue 11): `host::ace::first_bad_ace` answers a host that the UTS #46
//! fast path decodes without checking each `xn--` label with the `idna` crate. It must give
//! exactly what its twin `first_bad_ace_naive` (the crate, label by label) gives, on the ASCII
//! cells of the UTS #46 conformance files (valid and refused A-labels: bidi, joiners, hyphens,
//! bad Punycode, lengths), in lower and upper case and label by label; on the hosts of every
//! data set and of the URIs to-uri writes for them; and on made hosts of tricky labels. The
//! fast path must also be taken often (the test is not trivially the twin against itself).

mod common;

use iribulk::host::ace::{first_bad_ace, first_bad_ace_naive};
use iribulk::Converter as _;

/// Compares the two on `host`; returns whether the host has an ACE label that the fast path
/// decoded (so `first_bad_ace` answered without the crate).
fn same(host: &str) -> bool {
    assert_eq!(first_bad_ace(host), first_bad_ace_naive(host), "{host:?}");
    let ace = host.split('.').any(iribulk::host::ace::has_ace_prefix);
    let unicode = iribulk::host::fast::to_unicode(host);
    // `check`'s `display-unsafe` takes each A-label's U-label from this answer, label by
    // label, instead of from `check_ace_label`: they must be the same.
    if let Some(u) = &unicode {
        assert_eq!(
            host.split('.').count(),
            u.split('.').count(),
            "{host:?} {u:?}"
        );
        for (l, ul) in host.split('.').zip(u.split('.')) {
            if iribulk::host::ace::has_ace_prefix(l) {
                assert_eq!(
                    iribulk::host::ace::check_ace_label(l).as_deref(),
                    Ok(ul),
                    "{host:?}"
                );
            }
        }
    }
    ace && unicode.is_some()
}

/// `host`, its lower- and upper-case forms, each label alone, and with a root dot.
fn variants(host: &str) -> Vec<String> {
    let mut v = vec![
        host.to_string(),
        host.to_ascii_lowercase(),
        host.to_ascii_uppercase(),
        format!("{host}."),
    ];
    v.extend(host.split('.').map(str::to_string));
    v
}

#[test]
fn first_bad_ace_matches_twin_on_the_conformance_files() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let (mut hosts, mut fast) = (0usize, 0usize);
    for name in ["IdnaTestV2-unicode16.txt", "IdnaTestV2-unicode17.txt"] {
        let path = shared.join("conformance").join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for line in text.lines() {
            let data = line.split('#').next().unwrap_or("");
            let cols: Vec<&str> = data
                .split(';')
                .map(|c| c.trim_matches([' ', '\t']))
                .collect();
            // The ASCII cells (source, toUnicode, toAsciiN, toAsciiT) without escapes: the
            // A-label forms, valid or not.
            for cell in [0, 1, 3, 5].iter().filter_map(|&k| cols.get(k)) {
                if cell.is_empty() || !cell.is_ascii() || cell.contains('\\') {
                    continue;
                }
                for h in variants(cell) {
                    hosts += 1;
                    fast += usize::from(same(&h));
                }
            }
        }
    }
    eprintln!("conformance: {hosts} hosts, {fast} answered by the fast path");
    assert!(hosts > 20_000 && fast > 2_000, "{hosts} {fast}");
}

#[test]
fn first_bad_ace_matches_twin_on_every_dataset_and_its_uris() {
    let Some(shared) = common::shared_dir() else {
        return;
    };
    let mut to_uri = iribulk::ToUri::new(iribulk::ToUriOptions::default());
    let (mut hosts, mut fast) = (0usize, 0usize);
    for f in common::dataset_files(&shared) {
        let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for line in common::lines(&bytes) {
            let mut uri = Vec::new();
            let _ = to_uri.convert_or_copy_into(line, &mut uri);
            for h in common::hosts_of(line)
                .into_iter()
                .chain(common::hosts_of(&uri))
            {
                hosts += 1;
                fast += usize::from(same(&h));
            }
        }
    }
    eprintln!("data sets: {hosts} hosts, {fast} answered by the fast path");
    // intl_cldr's 16,845 non-ASCII hosts come back from to-uri in ACE form.
    assert!(fast > 15_000, "{hosts} {fast}");
}

#[test]
fn first_bad_ace_matches_twin_on_made_hosts() {
    let labels = [
        "a",
        "xn--p1ai",
        "xn--bcher-kva",
        "XN--BCHER-KVA",
        "xn--80ak6aa92e",
        "xn--r8jz45g",
        "xn--fa-hia",
        "xn--mgbh0fb",
        "xn--kgbechtv",
        "xn--4dbrk0ce",
        "xn--zz",
        "xn--a",
        "xn--",
        "xn--abc-",
        "xn--ls8h",
        "xn--1ug",
        "xn--0ugb",
        "xn--ab-fsf",
        "xn--a-ecp",
        "xn---a-",
        "xn--5-ecp",
        "xn--d1abbgf6aiiy",
        "a--b",
        "-a",
        "1",
        "xn--hxajbheg2az3al",
        "xn--n3h",
        "xn--e1afmkfd",
        "xn--wgv71a119e",
    ];
    let mut rng = common::Rng(0x51_7CC1_B727_220A);
    let (mut n, mut fast) = (0usize, 0usize);
    for _ in 0..20_000 {
        let k = 1 + rng.below(3);
        let host: Vec<&str> = (0..k).map(|_| rng.pick(&labels)).collect();
        let host = host.join(".");
        for h in variants(&host) {
            n += 1;
            fast += usize::from(same(&h));
        }
    }
    assert!(fast > n / 10, "{n} {fast}");
}
