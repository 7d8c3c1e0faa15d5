//! Command-line arguments (clap) and their validation into [`RunOptions`].

use clap::{Parser, Subcommand, ValueEnum};
use iribulk::config::{HostMode, InvalidUtf8, Repairs, ToUriOptions};
use iribulk::convert::normalize::{Idn, Level, Rungs};
use iribulk::engine::pipeline::RunOptions;
use iribulk::engine::report::Summary;
use iribulk::engine::{Base, EngineOptions, Filter, Mode as EngineMode, OnError};
use iribulk::host::idna2003;
use std::path::{Path, PathBuf};

const EXAMPLES: &str = "\
Examples:
  iribulk --in urls.txt --out uris.txt
  zcat crawl.gz | iribulk > uris.txt
  iribulk --in crawl.txt.zst --out uris.txt.zst --errors errors.tsv --stats json
  iribulk --in links.tsv --field 2 --on-error skip --out links.uri.tsv
  iribulk --host idna2003 --strict --on-error fail --in urls.txt --out /dev/null
  iribulk --mode to-iri --in uris.txt --out display.txt
  iribulk --mode check --invalid-only --in urls.txt --errors why.tsv > bad.txt

Exit status:
  0  the run did what was asked (also when bad lines were dropped by --on-error skip
     or filtered by check --valid-only/--invalid-only; warnings and repairs alone)
  3  at least one line with an error was written unchanged (--on-error keep), or the
     run stopped at the first error (--on-error fail); --exit-zero turns 3 into 0
  1  fatal: I/O error, unreadable input, disk full
  2  usage error: a bad option, or an option that does not apply to the mode";

/// iribulk: convert IRIs to URIs (RFC 3987) in bulk, at disk speed.
#[derive(Parser, Debug)]
#[command(name = "iribulk", version, about, after_help = EXAMPLES, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A command other than converting (`bench`).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Input file (mapped if regular; .gz/.zst decompressed); '-': stdin. Read before the
    /// FILE arguments; with neither, stdin.
    #[arg(long = "in", value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Input files, converted in order into one output ('-': stdin); after --in if both.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
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
    /// Make every repair and warning of the mode an error with its own code (what is asked
    /// for by name still applies: --trim, --leiri, --invalid-utf8 percent, --host-fallback).
    #[arg(long)]
    pub strict: bool,
    /// LEIRI input (3987bis §6): percent-encode controls instead of failing.
    #[arg(long)]
    pub leiri: bool,
    /// Opt-in repairs, a comma list: brackets ('[' ']' outside an IP literal to %5B %5D),
    /// percent (a '%' not followed by two hex digits to %25), hash (a second '#' to %23), or
    /// all. Each is counted as a repair and reported as a warning (repaired-bracket,
    /// repaired-percent, repaired-hash); without it these lines are errors (RFC 3987 §3.1).
    #[arg(long, value_name = "LIST", value_parser = Repairs::parse, conflicts_with = "strict")]
    pub repair: Option<Repairs>,
    /// Remove what browsers strip (C0 controls and spaces at either end, TAB/CR/LF) from
    /// special-scheme lines and lines with an authority (//) instead of failing them with
    /// browser-stripped (a repair).
    #[arg(long)]
    pub trim: bool,
    /// Bytes that are not UTF-8: error (default) or percent (encode each such byte).
    #[arg(long = "invalid-utf8", value_enum, default_value_t = Utf8Arg::Error)]
    pub invalid_utf8: Utf8Arg,
    /// A line with an error: keep it unchanged, skip it, or fail (stop, exit 3).
    #[arg(long = "on-error", value_enum, default_value_t = OnErrorArg::Keep)]
    pub on_error: OnErrorArg,
    /// Write a report of errors and warnings (file, line, column, code, message, input);
    /// '-': stdout, or stderr when stdout carries the output.
    #[arg(long, value_name = "FILE")]
    pub errors: Option<PathBuf>,
    /// Form of the --errors report: TSV with a header, or JSON Lines.
    #[arg(long = "errors-format", value_enum, default_value_t = ErrorsFormatArg::Tsv)]
    pub errors_format: ErrorsFormatArg,
    /// Convert only this field (1-based) of each record; other bytes are unchanged.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub field: Option<u32>,
    /// Field delimiter for --field: one ASCII character, or \t (default TAB). Every
    /// occurrence splits: no CSV quoting (a '"' is data).
    #[arg(long, value_name = "C", default_value = "\\t")]
    pub delimiter: String,
    /// The input's charset, a WHATWG Encoding Standard label (shift_jis, gbk, big5, euc-kr,
    /// windows-1251, koi8-r, windows-1252, utf-16le...): lines are decoded and normalized to NFC
    /// first (RFC 3987 §3.1 step 1b); UTF-16 input is transcoded as a stream.
    #[arg(long, value_name = "LABEL", conflicts_with = "charset_field")]
    pub charset: Option<String>,
    /// The charset label of each record is in this field (1-based; needs --field); an unknown
    /// label is the line error unknown-charset.
    #[arg(long, value_name = "N", requires = "field", value_parser = clap::value_parser!(u32).range(1..))]
    pub charset_field: Option<u32>,
    /// to-uri: the charset of http/https queries: the document's (legacy) charset, as
    /// browsers send it (3987bis §3.5; the default), or always utf-8.
    #[arg(long = "query-charset", value_enum, value_name = "utf-8|document")]
    pub query_charset: Option<QueryCharsetArg>,
    /// Worker threads (default: all cores; at most 1024).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = parse_threads)]
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
    /// Print the summary as text (default) or JSON, on stderr unless --stats-file says
    /// otherwise. Given explicitly, it is printed even with --quiet.
    #[arg(long, value_enum, default_value_t = StatsArg::Text)]
    pub stats: StatsArg,
    /// Write the summary to this file instead of stderr; '-': stdout (only when --out names
    /// a file). Written even with --quiet.
    #[arg(long = "stats-file", value_name = "FILE")]
    pub stats_file: Option<PathBuf>,
    /// Line-level problems never change the exit status (0 instead of 3): for Spark
    /// `RDD.pipe`, Hadoop Streaming and other runners that treat any non-zero status as a crash.
    #[arg(long = "exit-zero")]
    pub exit_zero: bool,
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
    /// The file to measure, read into memory (.gz/.zst decompressed, as for the main
    /// command); '-': stdin.
    #[arg(long = "in", value_name = "FILE")]
    pub input: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,
    /// Also draw the costs as a bar chart (SVG).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Timed samples per row; the median is kept (at least 5 for the copy baseline).
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
    /// Simple string comparison: no rung (the line still read as to-uri reads it: a space is
    /// written %20).
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

/// `--query-charset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum QueryCharsetArg {
    /// Always UTF-8.
    #[value(name = "utf-8")]
    Utf8,
    /// The document charset when it is not UCS-based (3987bis §3.5).
    Document,
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

/// `--errors-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ErrorsFormatArg {
    /// Tab-separated values with a header line.
    Tsv,
    /// JSON Lines: one object per row.
    Jsonl,
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
            } else if b.is_ascii_alphanumeric() || b"%-._~/".contains(&b) {
                // Bytes a conversion writes into a field that had none: percent-encoding
                // (`%`, hex), decoding of unreserved characters (to-iri, normalize: letters,
                // digits, `- . _ ~`), IDNA (`xn--`, a mapped `.`), normalization (an empty path
                // becomes `/`, resolution adds the base's). The record would gain fields
                // (found by a QA sweep).
                Err(format!(
                    "--delimiter '{s}' can be written into a converted field (percent-encoding, \
                     decoding, IDNA and normalization write letters, digits and - . _ ~ % /), \
                     which would split the record: use TAB, ',', ';', '|' or a space"
                ))
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
    /// Parses the process's arguments like [`Parser::parse`] (exiting on a usage error), and
    /// also returns the ids of the arguments given on the command line (not defaults).
    pub fn parse_with_sources() -> (Cli, Vec<String>) {
        use clap::{CommandFactory, FromArgMatches};
        // Leaked once per process: clap wants a `'static` text without its `string` feature.
        let long: &'static str = Box::leak(long_version().into_boxed_str());
        let m = Cli::command().long_version(long).get_matches();
        let cli = Cli::from_arg_matches(&m).unwrap_or_else(|e| e.exit());
        let given = m
            .ids()
            .filter(|id| {
                m.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
            })
            .map(|id| id.as_str().to_string())
            .collect();
        (cli, given)
    }
}

/// The exit status of a finished run: 3 when at least one line with an error was written as it
/// was (`--on-error keep` without a check filter) or the run stopped at the first error
/// (`--on-error fail`); 0 otherwise, and always 0 with `--exit-zero`. Dropped
/// (`--on-error skip`) and filtered (`check --valid-only`/`--invalid-only`) lines, warnings and
/// repairs never give 3.
pub fn exit_status(summary: &Summary, engine: &EngineOptions, exit_zero: bool) -> u8 {
    let kept_bad = engine.filter == Filter::All
        && engine.on_error == OnError::Keep
        && summary.stats.error_lines > 0;
    if !exit_zero && (kept_bad || summary.stopped_at_error) {
        3
    } else {
        0
    }
}

/// A set of [`Mode`]s, one bit each (bit = the mode's position in [`Mode::ALL`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modes(u8);

impl Modes {
    /// Every mode.
    pub const ALL: Modes = Modes(0b1_1111);
    const TO_URI: Modes = Modes(1);
    const TO_IRI: Modes = Modes(2);
    const CHECK: Modes = Modes(4);
    const LEIRI_TO_IRI: Modes = Modes(8);
    const NORMALIZE: Modes = Modes(16);

    const fn or(self, o: Modes) -> Modes {
        Modes(self.0 | o.0)
    }

    /// Whether `m` is in the set.
    pub fn has(self, m: Mode) -> bool {
        self.0 & (1 << m as u8) != 0
    }
}

impl Mode {
    /// Every mode, in the order of [`Modes`]' bits.
    pub const ALL: [Mode; 5] = [
        Mode::ToUri,
        Mode::ToIri,
        Mode::Check,
        Mode::LeiriToIri,
        Mode::Normalize,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Mode::ToUri => "to-uri",
            Mode::ToIri => "to-iri",
            Mode::Check => "check",
            Mode::LeiriToIri => "leiri-to-iri",
            Mode::Normalize => "normalize",
        }
    }
}

/// What else an option needs, in a mode where it applies, to mean something.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Nothing.
    Nothing,
    /// `--field` (the delimiter splits fields).
    Field,
    /// `--errors FILE` (the form of the report).
    Errors,
    /// `--charset` or `--charset-field` (`--query-charset`).
    Charset,
    /// `--host idna2003` (the IDNA2003 flags).
    HostIdna2003,
    /// A host mode that runs IDNA (`--host-fallback`: `--host percent` never fails IDNA).
    HostIdna,
    /// No `--valid-only`/`--invalid-only` (`--on-error`: the filter decides which lines go).
    NoFilter,
    /// In normalize, an `--idn` rung or `--level scheme` (the IDNA version of the IDN rung);
    /// elsewhere nothing.
    IdnRungInNormalize,
}

/// One row of [`OPTIONS`]: a flag, the clap id of its field, the modes where it applies, and
/// what else it needs there.
#[derive(Clone, Copy, Debug)]
pub struct Applies {
    /// The long flag, with its dashes (`--delimiter`); for a positional argument, its value
    /// name (`FILE`).
    pub flag: &'static str,
    /// The clap argument id (the field name of [`Cli`]).
    pub id: &'static str,
    /// The modes where the flag means something.
    pub modes: Modes,
    /// What else it needs in those modes.
    pub needs: Needs,
}

const fn row(flag: &'static str, id: &'static str, modes: Modes, needs: Needs) -> Applies {
    Applies {
        flag,
        id,
        modes,
        needs,
    }
}

/// Where each option of the main command applies: the one table that both
/// [`Cli::check_applies`] and the test over every flag × every mode read. A flag given outside
/// its modes, or without what it needs, is a usage error naming it; none is silently ignored.
///
/// Why the rows are what they are: `--strict` applies where a mode warns of what it writes
/// (to-uri; to-iri, of a raw character it percent-encodes); `check` validates as `--strict` does and never repairs or
/// falls back, so `--strict`, `--leiri`, `--invalid-utf8` and `--host-fallback` change nothing
/// there; `to-iri` decodes hosts (it reads `--host` and the IDNA2003 flags) but never encodes
/// them; `leiri-to-iri` only percent-encodes, so no host option applies; `normalize` reads
/// `--host` (and the IDNA2003 flags) only to pick the IDNA version of its IDN rung, and none of
/// `--strict`, `--leiri`, `--invalid-utf8`. `--repair` applies where lines are written
/// converted (to-uri, leiri-to-iri, normalize: the repaired line is converted); `check`
/// reports what a repair would change, and `to-iri` decodes, so it means nothing there
/// (and it conflicts with `--strict`, which refuses every repair).
pub const OPTIONS: &[Applies] = {
    use Needs::*;
    let all = Modes::ALL;
    let uri = Modes::TO_URI;
    let chk = Modes::CHECK;
    let norm = Modes::NORMALIZE;
    // The modes whose input is an IRI (legacy charsets apply; to-iri takes URIs).
    let iris = Modes::TO_URI
        .or(Modes::CHECK)
        .or(Modes::LEIRI_TO_IRI)
        .or(Modes::NORMALIZE);
    // The modes that write what a repair changes (check validates; to-iri decodes).
    let repairs = Modes::TO_URI.or(Modes::LEIRI_TO_IRI).or(Modes::NORMALIZE);
    // The modes that warn of what they write (`--strict` makes the warnings errors).
    let warns = Modes::TO_URI.or(Modes::TO_IRI);
    let hosts = Modes::TO_URI
        .or(Modes::TO_IRI)
        .or(Modes::CHECK)
        .or(Modes::NORMALIZE);
    // The modes that write what they convert (`--trim` is a repair: `check` repairs nothing).
    let writers = Modes::TO_URI
        .or(Modes::TO_IRI)
        .or(Modes::LEIRI_TO_IRI)
        .or(Modes::NORMALIZE);
    &[
        row("FILE", "files", all, Nothing),
        row("--in", "input", all, Nothing),
        row("--out", "output", all, Nothing),
        row("--mode", "mode", all, Nothing),
        row("--uri", "uri", chk, Nothing),
        row("--valid-only", "valid_only", chk, Nothing),
        row("--invalid-only", "invalid_only", chk, Nothing),
        row("--level", "level", norm, Nothing),
        row("--case", "case", norm, Nothing),
        row("--percent", "percent", norm, Nothing),
        row("--nfc", "nfc", norm, Nothing),
        row("--nfkc", "nfkc", norm, Nothing),
        row("--path", "path", norm, Nothing),
        row("--scheme-rules", "scheme_rules", norm, Nothing),
        row("--idn", "idn", norm, Nothing),
        row("--as-uri", "as_uri", norm, Nothing),
        row("--base", "base", all, Nothing),
        row("--base-field", "base_field", all, Field),
        row("--host", "host", hosts, IdnRungInNormalize),
        row("--host-fallback", "host_fallback", uri, HostIdna),
        row(
            "--idna2003-no-unassigned",
            "idna2003_no_unassigned",
            hosts,
            HostIdna2003,
        ),
        row(
            "--idna2003-no-std3",
            "idna2003_no_std3",
            hosts,
            HostIdna2003,
        ),
        row("--strict", "strict", warns, Nothing),
        row("--leiri", "leiri", uri, Nothing),
        row("--trim", "trim", writers, Nothing),
        row("--invalid-utf8", "invalid_utf8", uri, Nothing),
        row("--repair", "repair", repairs, Nothing),
        row("--on-error", "on_error", all, NoFilter),
        row("--errors", "errors", all, Nothing),
        row("--errors-format", "errors_format", all, Errors),
        row("--field", "field", all, Nothing),
        row("--delimiter", "delimiter", all, Field),
        row("--charset", "charset", iris, Nothing),
        row("--charset-field", "charset_field", iris, Field),
        row("--query-charset", "query_charset", uri, Charset),
        row("--threads", "threads", all, Nothing),
        row("--no-mmap", "no_mmap", all, Nothing),
        row("--max-line-bytes", "max_line_bytes", all, Nothing),
        row("--chunk-size", "chunk_size", all, Nothing),
        row("--stats", "stats", all, Nothing),
        row("--stats-file", "stats_file", all, Nothing),
        row("--exit-zero", "exit_zero", all, Nothing),
        row("--quiet", "quiet", all, Nothing),
    ]
};

/// `--version --verbose`-style text of `--version`: the SIMD level this CPU runs, the build's
/// features and the Unicode versions of the normalization, IDNA (issue 16) and UTS #39 display
/// tables.
pub fn long_version() -> String {
    let simd = match iribulk::simd::Impl::best() {
        iribulk::simd::Impl::Avx512 => "AVX-512",
        iribulk::simd::Impl::Avx2 => "AVX2",
        iribulk::simd::Impl::Sse2 => "SSE2",
        iribulk::simd::Impl::Scalar => "scalar",
    };
    let (a, b, c) = unicode_normalization::UNICODE_VERSION;
    let mut feats: Vec<&str> = Vec::new();
    if cfg!(debug_assertions) {
        feats.push("debug");
    } else {
        feats.push("release");
    }
    if cfg!(target_feature = "avx2") {
        feats.push("avx2 at compile time");
    }
    let v = |(a, b, c): (u8, u8, u8)| format!("{a}.{b}.{c}");
    let (sa, sb, sc) = unicode_security::UNICODE_VERSION;
    format!(
        "{}\nsimd: {simd} (detected at run time)\ntarget: {}-{}\nbuild: {}\nunicode: {a}.{b}.{c} (NFC/NFKC tables)\n\
         idna: UTS #46 tables Unicode {} (idna crate), IDNA2003 Nameprep Unicode {} (RFC 3491)\n\
         display: UTS #39 tables Unicode {sa}.{sb}.{sc}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH,
        std::env::consts::OS,
        feats.join(", "),
        v(iribulk::host::UTS46_UNICODE_VERSION),
        v(iribulk::host::NAMEPREP_UNICODE_VERSION),
    )
}

/// `--threads N`: 0 (one per core) to [`iribulk::engine::MAX_THREADS`].
fn parse_threads(s: &str) -> Result<usize, String> {
    let n: usize = s
        .parse()
        .map_err(|_| format!("'{s}' is not a number of threads"))?;
    if n > iribulk::engine::MAX_THREADS {
        return Err(format!(
            "{n} threads: at most {} (0 starts one per core)",
            iribulk::engine::MAX_THREADS
        ));
    }
    Ok(n)
}

/// Checks, before anything is read or created, that a file option can be written: its parent
/// folder exists, is a folder, and takes a new file (probed by creating and removing one), and
/// the path itself is not a folder. `-` (a standard stream) and existing files that are not
/// regular (FIFOs, devices) are always fine: they are never opened here.
pub fn check_writable(flag: &str, p: &Path) -> Result<(), String> {
    if p.as_os_str() == "-" {
        return Ok(());
    }
    if iribulk::engine::input::names_read_only_descriptor(p) {
        return Err(format!(
            "{flag} '{}' names a descriptor open for reading only",
            p.display()
        ));
    }
    if p.is_dir() {
        return Err(format!("{flag} '{}' is a folder, not a file", p.display()));
    }
    let parent = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(format!(
            "{flag} '{}': the folder '{}' does not exist",
            p.display(),
            parent.display()
        ));
    }
    if let Ok(md) = std::fs::metadata(p) {
        if !md.is_file() {
            // A FIFO, a terminal, /dev/null, a process substitution: never opened here (a
            // reader of a FIFO would see the end of its data when we closed it).
            return Ok(());
        }
        // An existing file: it is opened for writing (or replaced) later; it must allow it.
        return std::fs::OpenOptions::new()
            .append(true)
            .open(p)
            .map(drop)
            .or_else(|e| probe(&parent).map_err(|_| e))
            .map_err(|e| format!("{flag} '{}' cannot be written: {e}", p.display()));
    }
    probe(&parent).map_err(|e| {
        format!(
            "{flag} '{}': cannot create a file in '{}': {e}",
            p.display(),
            parent.display()
        )
    })
}

fn probe(dir: &Path) -> std::io::Result<()> {
    iribulk::engine::output::probe_dir(dir)
}

impl Cli {
    /// Refuses every option given on the command line (`given(id)`) outside the modes where
    /// [`OPTIONS`] says it applies, or without what it needs there (all of them in one message),
    /// then a `--base` without a scheme and file options that cannot be written.
    pub fn check_applies(&self, given: &dyn Fn(&str) -> bool) -> Result<(), String> {
        let m = self.mode;
        let idn_rung = self.idn.is_some() || self.level == Some(LevelArg::Scheme);
        let mut refused: Vec<String> = Vec::new();
        for a in OPTIONS {
            if !given(a.id) {
                continue;
            }
            if !a.modes.has(m) {
                let modes: Vec<&str> = Mode::ALL
                    .iter()
                    .filter(|x| a.modes.has(**x))
                    .map(|x| x.name())
                    .collect();
                refused.push(format!(
                    "{} does not apply to --mode {} (it applies to: {})",
                    a.flag,
                    m.name(),
                    modes.join(", ")
                ));
                continue;
            }
            let why = match a.needs {
                Needs::Nothing => None,
                Needs::Field if self.field.is_none() => Some("goes with --field N"),
                Needs::Errors if self.errors.is_none() => Some("goes with --errors FILE"),
                Needs::Charset if self.charset.is_none() && self.charset_field.is_none() => {
                    Some("goes with --charset LABEL or --charset-field N")
                }
                Needs::HostIdna2003 if self.host != HostArg::Idna2003 => {
                    Some("goes with --host idna2003")
                }
                Needs::HostIdna if self.host == HostArg::Percent => {
                    Some("means nothing with --host percent (no IDNA runs)")
                }
                Needs::NoFilter if self.valid_only || self.invalid_only => Some(
                    "does not apply with --valid-only/--invalid-only (the filter decides which \
                     lines are written)",
                ),
                Needs::IdnRungInNormalize if m == Mode::Normalize && !idn_rung => Some(
                    "in --mode normalize picks the IDNA version of the IDN rung: give --idn or \
                     --level scheme",
                ),
                Needs::IdnRungInNormalize
                    if m == Mode::Normalize && self.host == HostArg::Percent =>
                {
                    Some("percent does not apply to --mode normalize (use uts46 or idna2003)")
                }
                _ => None,
            };
            if let Some(why) = why {
                refused.push(format!("{} {why}", a.flag));
            }
        }
        // `--as-uri` writes a URI, whose DNS hosts are ACE: `--idn unicode` would be ignored
        // (a QA sweep: accepted, no effect; contract item 14: no option silently ignored).
        if self.as_uri && self.idn == Some(IdnArg::Unicode) {
            refused.push(
                "--idn unicode does not go with --as-uri (a URI's hosts are ACE: --as-uri writes \
                 them as --idn ascii does)"
                    .into(),
            );
        }
        if !refused.is_empty() {
            return Err(refused.join("; "));
        }
        if let Some(b) = &self.base {
            // An absolute IRI (RFC 3986 §5.1, RFC 3987 §2.2) whose host the run converts,
            // before any line is read.
            let opts = self
                .host_options()
                .repair(self.repair.unwrap_or_default())
                .strict(self.strict);
            if let Some(why) = iribulk::base_problem_with(b, opts) {
                return Err(format!("--base '{b}' {why}"));
            }
        }
        if let Some(p) = &self.errors {
            check_writable("--errors", p)?;
        }
        match &self.stats_file {
            Some(p)
                if p.as_os_str() == "-"
                    && self.output.as_ref().is_none_or(|o| o.as_os_str() == "-") =>
            {
                return Err(
                    "--stats-file - writes the summary to stdout, which already carries the \
                     output: give --out FILE, or a --stats-file path"
                        .into(),
                );
            }
            Some(p)
                if p.as_os_str() == "-"
                    && self.errors.as_ref().is_some_and(|e| e.as_os_str() == "-") =>
            {
                return Err(
                    "--stats-file - and --errors - would both write to stdout: give one of them \
                     a file"
                        .into(),
                );
            }
            Some(p) if p.as_os_str() == "-" => {}
            Some(p) => check_writable("--stats-file", p)?,
            None => {}
        }
        Ok(())
    }

    /// Validates and converts the arguments; `given(id)` says whether the argument with clap
    /// id `id` was on the command line (see [`Cli::parse_with_sources`]).
    /// The to-uri options of `--host` and `--host-fallback`, which a `--base` is checked
    /// with too.
    fn host_options(&self) -> ToUriOptions {
        ToUriOptions::default()
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
    }

    pub fn to_options(&self, given: &dyn Fn(&str) -> bool) -> Result<RunOptions, String> {
        self.check_applies(given)?;
        // A run that --on-error fail stops leaves its --out as it was; --exit-zero would
        // report it as a success (found by a QA sweep: yesterday's output stayed, status 0).
        if self.exit_zero && matches!(self.on_error, OnErrorArg::Fail) {
            return Err(
                "--exit-zero with --on-error fail would report a run stopped at its \
                        first error, its output left as it was, as a success; use --on-error \
                        keep or skip with --exit-zero"
                    .into(),
            );
        }
        let to_uri = self
            .host_options()
            .strict(self.strict)
            .leiri(self.leiri)
            .trim(self.trim)
            .invalid_utf8(match self.invalid_utf8 {
                Utf8Arg::Error => InvalidUtf8::Error,
                Utf8Arg::Percent => InvalidUtf8::Percent,
            })
            .repair(self.repair.unwrap_or_default());
        let field = match self.field {
            Some(n) => Some((n as usize - 1, parse_delimiter(&self.delimiter)?)),
            None => None,
        };
        if let (Some((_, d)), Some(b)) = (field, &self.base) {
            // Resolution writes the base's bytes (and its scheme's `:`) into the field.
            if b.as_bytes().contains(&d) || d == b':' {
                return Err(format!(
                    "--delimiter '{}' is in --base or its scheme's ':', which resolution \
                     writes into the field and would split the record",
                    d as char
                ));
            }
        }
        if let (Some((k, d)), Some(n)) = (field, self.base_field) {
            // The base field holds an absolute IRI: its scheme's `:` (and its bytes, which
            // resolution writes into the converted field) cannot be the delimiter; and it is
            // neither the field converted nor the charset label (every record would be
            // `bad-base`).
            if d == b':' {
                return Err(
                    "--delimiter ':' splits every base of --base-field at its scheme's \
                            ':', and resolution writes it into the field"
                        .into(),
                );
            }
            if n as usize - 1 == k {
                return Err(format!(
                    "--base-field {n} is the field --field converts: the base needs a field \
                     of its own"
                ));
            }
            if self.charset_field == Some(n) {
                return Err(format!(
                    "--base-field {n} is also --charset-field {n}: the base and the charset \
                     label need a field each"
                ));
            }
        }
        let charset = self.legacy_input(field)?;
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
                charset,
            },
            base: match (&self.base, self.base_field) {
                (_, Some(n)) => Base::Field(n as usize - 1),
                (Some(b), None) => Base::Fixed(b.as_bytes().into()),
                (None, None) => Base::None,
            },
            inputs: self.input.iter().chain(&self.files).cloned().collect(),
            output: self.output.clone(),
            errors: self.errors.clone(),
            errors_format: match self.errors_format {
                ErrorsFormatArg::Tsv => iribulk::engine::report::ReportFormat::Tsv,
                ErrorsFormatArg::Jsonl => iribulk::engine::report::ReportFormat::Jsonl,
            },
            threads: self.threads,
            chunk_size: self.chunk_size,
            window: 0,
            no_mmap: self.no_mmap,
        })
    }

    /// `--charset` / `--charset-field` / `--query-charset` as the engine takes them. An
    /// unknown `--charset` label is a usage error naming the option.
    fn legacy_input(
        &self,
        field: Option<(usize, u8)>,
    ) -> Result<Option<iribulk::charset::LegacyInput>, String> {
        use iribulk::charset::{Charset, CharsetSource, LegacyInput, QueryCharset};
        let source = match (&self.charset, self.charset_field) {
            (Some(l), _) => {
                CharsetSource::Fixed(Charset::for_label(l.as_bytes()).ok_or_else(|| {
                    format!(
                        "--charset '{l}' {}",
                        Charset::refused_label_reason(l.as_bytes())
                    )
                })?)
            }
            (None, Some(n)) => {
                let k = n as usize - 1;
                if field.is_some_and(|f| f.0 == k) {
                    return Err(format!(
                        "--charset-field {n} is the field --field converts: the label needs a \
                         field of its own"
                    ));
                }
                CharsetSource::Field(k)
            }
            (None, None) => return Ok(None),
        };
        Ok(Some(LegacyInput {
            source,
            query_charset: match self.query_charset {
                Some(QueryCharsetArg::Utf8) => QueryCharset::Utf8,
                _ => QueryCharset::Document,
            },
        }))
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
        for ok in [",", ";", "|", " ", "!", "=", "&", "#", "@", ":"] {
            assert!(parse_delimiter(ok).is_ok(), "{ok}");
        }
        for bad in ["a", "Z", "0", "%", "-", ".", "_", "~", "/"] {
            assert!(parse_delimiter(bad).is_err(), "{bad}");
        }
    }
}
