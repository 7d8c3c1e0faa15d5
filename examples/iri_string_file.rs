//! The end-to-end peer of `iribulk --mode to-uri --in IN --out OUT` (issue #11's file → file
//! target): the same job written the way a user of the `iri-string` crate would write it, one
//! thread, so that `scripts/bench` and the README can time both programs on the same files.
//!
//! ```text
//! cargo build --release --example iri_string_file
//! target/release/examples/iri_string_file IN OUT
//! ```
//!
//! The input is memory-mapped (as iribulk maps a regular file), cut at `\n` with `memchr`;
//! each line that is UTF-8 and an IRI reference (RFC 3987 §2.2) is written as
//! `IriReferenceStr::encode_to_uri()` (RFC 3987 §3.1), any other line unchanged (iribulk's
//! default `--on-error keep`), each followed by `\n`, through a 1 MiB `BufWriter`. A trailing
//! CR stays part of its line (iribulk keeps CRLF endings; a line with a CR is rejected by
//! iri-string and kept). Prints the number of lines kept unchanged on stderr.

use iri_string::types::IriReferenceStr;
use std::fs::File;
use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: iri_string_file IN OUT");
        std::process::exit(2);
    }
    let input = File::open(&args[1])?;
    // SAFETY: the file is only read while mapped; like iribulk's own map, the caller must not
    // modify it while this program runs (a benchmark input in /dev/shm).
    let map = unsafe { memmap2::Mmap::map(&input)? };
    let data: &[u8] = &map;
    let mut out = BufWriter::with_capacity(1 << 20, File::create(&args[2])?);
    let mut kept = 0u64;
    let mut start = 0;
    while start < data.len() {
        let end = memchr::memchr(b'\n', &data[start..]).map_or(data.len(), |k| start + k);
        let line = &data[start..end];
        match std::str::from_utf8(line).ok().map(IriReferenceStr::new) {
            Some(Ok(iri)) => write!(out, "{}", iri.encode_to_uri())?,
            _ => {
                kept += 1;
                out.write_all(line)?;
            }
        }
        out.write_all(b"\n")?;
        start = end + 1;
    }
    out.flush()?;
    eprintln!("iri_string_file: {kept} lines kept unchanged");
    Ok(())
}
