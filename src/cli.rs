//! Command-line arguments (clap) and their validation into [`RunOptions`].

use crate::config::{HostMode, InvalidUtf8, ToUriOptions};
use crate::convert::normalize::{Idn, Level, Rungs};
use crate::engine::{EngineOptions, Filter, Mode as EngineMode, OnError};
use crate::host::idna2003;
use crate::pipeline::RunOptions;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  iribulk --in urls.txt --out uris.txt
  zcat crawl.gz | iribulk > uris.txt
  iribulk --in crawl.txt.zst --out uris.txt.zst --errors errors.tsv --stats json
  iribulk --in links.tsv --field 2 --on-error skip --out links.uri.tsv
  iribulk --host idna2003 --strict --on-error fail --in urls.txt --out /dev/null
  iribulk --mode to-iri --in uris.txt --out display.txt
  iribulk --mode check --invalid-only --in urls.txt --errors why.tsv > bad.txt

Exit status: 0 all lines converted; 3 finished, but some lines had errors;
1 I/O or other fatal error; 2 usage error.";

/// iribulk: convert IRIs to URIs (RFC 3987) in bulk, at disk speed.
#[derive(Parser, Debug)]
#[command(name = "iribulk", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A command other than converting (`bench`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Input file (mapped if regular; .gz/.zst decompressed); '-' or absent: stdin.
    #[arg(long = "in", value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Output file (written to a temporary name, renamed at the end; .gz/.zst compressed);
    /// '-' or absent: stdout.
    #[arg(long = "out", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// What to do with each line.
    #[arg(long, value_enum, default_value_t = Mode::ToUri)]
    pub mode: Mode,
    /// check: validate RFC 3986 URI references instead of IRI references.
    #[arg(long)]
    pub uri: bool,
    /// check: write only the valid lines (a filter).
    #[arg(long, conflicts_with = "invalid_only")]
    pub valid_only: bool,
    /// check: write only the invalid lines.
    #[arg(long)]
    pub invalid_only: bool,
    /// normalize: a preset of rungs (RFC 3987 §5.3): string (none), syntax (case, percent,
    /// path), scheme (syntax + scheme rules + IDN to ACE). Default syntax; the rung flags add to it.
    #[arg(long, value_enum)]
    pub level: Option<LevelArg>,
    /// normalize: scheme and host to lower case, %HH hex to upper case (§5.3.2.1).
    #[arg(long)]
    pub case: bool,
    /// normalize: decode %HH of unreserved characters only (§5.3.2.3).
    #[arg(long)]
    pub percent: bool,
    /// normalize: NFC per component (§5.3.2.2).
    #[arg(long)]
    pub nfc: bool,
    /// normalize: NFKC per component (§5.3.2.2).
    #[arg(long)]
    pub nfkc: bool,
    /// normalize: remove dot segments (§5.3.2.4, RFC 3986 §5.2.4).
    #[arg(long)]
    pub path: bool,
    /// normalize: scheme-based rules: default/empty port, empty path to "/" (§5.3.3).
    #[arg(long = "scheme-rules")]
    pub scheme_rules: bool,
    /// normalize: IDN hosts to their ACE (ascii) or Unicode form (§5.3.3).
    #[arg(long, value_enum)]
    pub idn: Option<IdnArg>,
    /// normalize: write URIs instead of IRIs.
    #[arg(long)]
    pub as_uri: bool,
    /// Resolve every reference against this base IRI first (RFC 3986 §5.2, RFC 3987 §6.5).
    #[arg(long, value_name = "IRI", conflicts_with = "base_field")]
    pub base: Option<String>,
    /// Resolve each record's reference (--field) against the base in this field (1-based).
    #[arg(long, value_name = "N", requires = "field", value_parser = clap::value_parser!(u32).range(1..))]
    pub base_field: Option<u32>,
    /// Host mapping: auto (IDNA for DNS schemes such as http/https/ws/wss/ftp, percent-encoding
    /// otherwise), uts46, idna2003 (RFC 3490), percent (3987bis §3.4.1).
    #[arg(long, value_enum, default_value_t = HostArg::Auto)]
    pub host: HostArg,
    /// When IDNA fails, percent-encode the host instead of failing the line.
    #[arg(long = "host-fallback", value_enum, value_name = "percent")]
    pub host_fallback: Option<Fallback>,
    /// IDNA2003: refuse code points unassigned in Unicode 3.2 (AllowUnassigned=FALSE).
    #[arg(long)]
    pub idna2003_no_unassigned: bool,
    /// IDNA2003: do not apply the STD3 ASCII rules (UseSTD3ASCIIRules=FALSE).
    #[arg(long)]
    pub idna2003_no_std3: bool,
    /// Make every repair and warning an error with its own code.
    #[arg(long)]
    pub strict: bool,
    /// LEIRI input (3987bis §6): percent-encode controls instead of failing.
    #[arg(long)]
    pub leiri: bool,
    /// Bytes that are not UTF-8: error (default) or percent (encode each such byte).
    #[arg(long = "invalid-utf8", value_enum, default_value_t = Utf8Arg::Error)]
    pub invalid_utf8: Utf8Arg,
    /// A line with an error: keep it unchanged, skip it, or fail (stop, exit 3).
    #[arg(long = "on-error", value_enum, default_value_t = OnErrorArg::Keep)]
    pub on_error: OnErrorArg,
    /// Write a TSV report of errors and warnings (line, column, code, message, input).
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Convert only this field (1-based) of each record; other bytes are unchanged.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub field: Option<u32>,
    /// Field delimiter for --field: one ASCII character, or \t (default TAB).
    #[arg(long, value_name = "C", default_value = "\\t")]
    pub delimiter: String,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Stream regular files instead of memory-mapping them.
    #[arg(long)]
    pub no_mmap: bool,
    /// Lines longer than this many bytes are the error line-too-long.
    #[arg(long = "max-line-bytes", value_name = "BYTES", default_value = "8M", value_parser = parse_size)]
    pub max_line_bytes: usize,
    /// Chunk size (e.g. 1M, 256K).
    #[arg(long = "chunk-size", value_name = "BYTES", default_value = "1M", value_parser = parse_size)]
    pub chunk_size: usize,
    /// Print the summary as text (default) or JSON on stderr.
    #[arg(long, value_enum, default_value_t = StatsArg::Text)]
    pub stats: StatsArg,
    /// No summary and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Modes. Later modes (normalize, bench) join this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// IRI → URI (RFC 3987 §3.1).
    ToUri,
    /// URI → IRI for display (RFC 3987 §3.2, 3987bis §4.2).
    ToIri,
    /// Validate each line as an IRI reference (RFC 3987 §2.2, §4, §6.1); with --uri, as a URI
    /// reference. Valid lines are written unchanged.
    Check,
    /// LEIRI → IRI: percent-encode what LEIRIs allow and IRIs do not (3987bis §6.3).
    LeiriToIri,
    /// Normalize for comparison (RFC 3987 §5.3): --level and the rung flags.
    Normalize,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Measure each normalization rung, the ladder, and the conversions on a file.
    Bench(BenchArgs),
}

/// `iribulk bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The file to measure (read into memory).
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
    /// Also draw the costs as a bar chart (SVG).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Timed passes per row; the best is kept.
    #[arg(long, default_value_t = 3)]
    pub runs: usize,
}

/// `bench --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Aligned text.
    Table,
    /// CSV with a header.
    Csv,
    /// JSON array.
    Json,
}

/// `--level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Simple string comparison: no rung.
    String,
    /// Case, percent-encoding, path segments.
    Syntax,
    /// Syntax + scheme rules + IDN to ACE.
    Scheme,
}

/// `--idn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum IdnArg {
    /// ACE (xn--) form.
    Ascii,
    /// Unicode form.
    Unicode,
}

/// `--host`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HostArg {
    /// IDNA for DNS schemes, percent-encoding otherwise.
    Auto,
    /// UTS #46 non-transitional.
    Uts46,
    /// RFC 3490 IDNA2003.
    Idna2003,
    /// Percent-encode the host.
    Percent,
}

/// `--host-fallback`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Fallback {
    /// Percent-encode the host.
    Percent,
}

/// `--invalid-utf8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Utf8Arg {
    /// Error `invalid-utf8`.
    Error,
    /// Percent-encode invalid bytes.
    Percent,
}

/// `--on-error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OnErrorArg {
    /// Keep the line unchanged.
    Keep,
    /// Leave the line out.
    Skip,
    /// Stop.
    Fail,
}

/// `--stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsArg {
    /// Human-readable.
    Text,
    /// JSON.
    Json,
}

/// Parses sizes like `8M`, `256K`, `1G`, `4096` (binary multiples).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let m: usize = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                _ => return Err(format!("unknown size suffix in '{s}' (use K, M or G)")),
            };
            (&s[..i], m)
        }
        _ => (s, 1),
    };
    let n: usize = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 4096, 256K, 8M)"))?;
    let v = n
        .checked_mul(mult)
        .ok_or_else(|| format!("size '{s}' is too large"))?;
    if v == 0 {
        return Err("size must be at least 1 byte".into());
    }
    Ok(v)
}

fn parse_delimiter(s: &str) -> Result<u8, String> {
    match s {
        "\\t" | "\t" | "tab" | "TAB" => Ok(b'\t'),
        _ if s.len() == 1 && s.is_ascii() => {
            let b = s.as_bytes()[0];
            if b == b'\n' || b == b'\r' {
                Err("the delimiter cannot be CR or LF".into())
            } else {
                Ok(b)
            }
        }
        _ => Err(format!(
            "--delimiter must be one ASCII character or \\t, not '{s}'"
        )),
    }
}

impl Cli {
    /// Validates and converts the arguments.
    pub fn to_options(&self) -> Result<RunOptions, String> {
        let to_uri = ToUriOptions::default()
            .host(match self.host {
                HostArg::Auto => HostMode::Auto,
                HostArg::Uts46 => HostMode::Uts46,
                HostArg::Idna2003 => HostMode::Idna2003(idna2003::Flags {
                    allow_unassigned: !self.idna2003_no_unassigned,
                    use_std3_ascii_rules: !self.idna2003_no_std3,
                }),
                HostArg::Percent => HostMode::Percent,
            })
            .host_fallback_percent(self.host_fallback.is_some())
            .strict(self.strict)
            .leiri(self.leiri)
            .invalid_utf8(match self.invalid_utf8 {
                Utf8Arg::Error => InvalidUtf8::Error,
                Utf8Arg::Percent => InvalidUtf8::Percent,
            });
        let field = match self.field {
            Some(n) => Some((n as usize - 1, parse_delimiter(&self.delimiter)?)),
            None => None,
        };
        let is_check = self.mode == Mode::Check;
        if !is_check && (self.uri || self.valid_only || self.invalid_only) {
            return Err("--uri, --valid-only and --invalid-only go with --mode check".into());
        }
        let rung_flags = self.level.is_some()
            || self.case
            || self.percent
            || self.nfc
            || self.nfkc
            || self.path
            || self.scheme_rules
            || self.idn.is_some()
            || self.as_uri;
        if self.mode != Mode::Normalize && rung_flags {
            return Err(
                "--level, --case, --percent, --nfc, --nfkc, --path, --scheme-rules, --idn and \
                 --as-uri go with --mode normalize"
                    .into(),
            );
        }
        let mut rungs = Rungs::level(match self.level {
            None | Some(LevelArg::Syntax) => Level::Syntax,
            Some(LevelArg::String) => Level::String,
            Some(LevelArg::Scheme) => Level::Scheme,
        });
        rungs.case |= self.case;
        rungs.percent |= self.percent;
        rungs.nfc |= self.nfc;
        rungs.nfkc |= self.nfkc;
        rungs.path |= self.path;
        rungs.scheme |= self.scheme_rules;
        if let Some(i) = self.idn {
            rungs.idn = Some(match i {
                IdnArg::Ascii => Idn::Ascii,
                IdnArg::Unicode => Idn::Unicode,
            });
        }
        Ok(RunOptions {
            engine: EngineOptions {
                mode: match self.mode {
                    Mode::ToUri => EngineMode::ToUri,
                    Mode::ToIri => EngineMode::ToIri,
                    Mode::Check => EngineMode::Check { uri_only: self.uri },
                    Mode::LeiriToIri => EngineMode::LeiriToIri,
                    Mode::Normalize => EngineMode::Normalize {
                        rungs,
                        as_uri: self.as_uri,
                    },
                },
                filter: if self.valid_only {
                    Filter::ValidOnly
                } else if self.invalid_only {
                    Filter::InvalidOnly
                } else {
                    Filter::All
                },
                to_uri,
                on_error: match self.on_error {
                    OnErrorArg::Keep => OnError::Keep,
                    OnErrorArg::Skip => OnError::Skip,
                    OnErrorArg::Fail => OnError::Fail,
                },
                field,
                max_line_bytes: self.max_line_bytes,
                base_field: self.base_field.map(|n| n as usize - 1),
            },
            base: self.base.clone().map(String::into_bytes),
            input: self.input.clone(),
            output: self.output.clone(),
            errors: self.errors.clone(),
            threads: self.threads,
            chunk_size: self.chunk_size,
            window: 0,
            no_mmap: self.no_mmap,
            progress: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("8M"), Ok(8 << 20));
        assert_eq!(parse_size("256k"), Ok(256 << 10));
        assert_eq!(parse_size("17"), Ok(17));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1X").is_err());
        assert!(parse_size("x").is_err());
    }

    #[test]
    fn delimiters() {
        assert_eq!(parse_delimiter("\\t"), Ok(b'\t'));
        assert_eq!(parse_delimiter(","), Ok(b','));
        assert!(parse_delimiter("ab").is_err());
        assert!(parse_delimiter("é").is_err());
    }
}
