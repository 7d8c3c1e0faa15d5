//! The chunk pipeline: cut (or read) chunks, convert them in parallel, write them in input
//! order, report errors with global line numbers, and keep the counts.
//!
//! Peak memory ≈ slots × (chunk size + converted bytes of a chunk); the buffers of each slot
//! are reused from one chunk to a later one. A mapped input is never copied: clean runs are
//! written straight from the map.

use crate::engine::input::{self, Source, StreamChunk, StreamChunker};
use crate::engine::output::{self, Output};
use crate::engine::report::{self, ReportFormat, Row, Summary};
use crate::engine::{Base, ChunkOut, EngineOptions, OnError, Stats, Worker};
use crate::error::ErrorKind;
use std::fmt;
use std::io::{self, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// The most worker threads a run starts (`RunOptions::threads` above it is cut to it; the CLI's
/// `--threads` and the Python functions' `threads=` refuse more). Each worker holds a
/// converter, a host cache and output room: `--threads 100000` took minutes starting threads
/// before the first line (found by a QA sweep).
pub const MAX_THREADS: usize = 1024;

/// Options of a whole run (the CLI's `to-uri` mode).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Per-chunk conversion options.
    pub engine: EngineOptions,
    /// Input files, converted in this order into one output; `-` is stdin. Empty: stdin.
    pub inputs: Vec<PathBuf>,
    /// Output file; `None` or `-` for stdout. Default stdout.
    pub output: Option<PathBuf>,
    /// Error report. `-`: stdout when the output is a file, stderr when stdout carries the
    /// output. Default none.
    pub errors: Option<PathBuf>,
    /// Form of the error report. Default TSV.
    pub errors_format: ReportFormat,
    /// Worker threads; 0 means one per core. Default 0. At most [`MAX_THREADS`] are started.
    pub threads: usize,
    /// Target chunk size in bytes. Default 1 MiB.
    pub chunk_size: usize,
    /// Chunks alive at once (cut, converting, or waiting to be written); 0 means
    /// [`default_window`] of the thread count. Default 0.
    pub window: usize,
    /// Stream regular files instead of mapping them. Default false.
    pub no_mmap: bool,
    /// Resolve every reference against a base IRI first (fixed, or a field of the record).
    /// Default [`Base::None`].
    pub base: Base,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            engine: EngineOptions::default(),
            inputs: Vec::new(),
            output: None,
            errors: None,
            errors_format: ReportFormat::Tsv,
            threads: 0,
            chunk_size: 1 << 20,
            window: 0,
            no_mmap: false,
            base: Base::None,
        }
    }
}

/// What one chunk's output may grow to from a fixed `--base` ([`RunOptions::chunk_bytes`]).
const BASE_OUTPUT_PER_CHUNK: usize = 32 << 20;

impl RunOptions {
    /// The chunk size the run cuts its input at: [`RunOptions::chunk_size`], but with a fixed
    /// `--base` at most what keeps one chunk's output near [`BASE_OUTPUT_PER_CHUNK`] when
    /// every line is a short reference written as the whole base (a chunk of empty lines is
    /// as many bases; a QA sweep: 4 MB of empty lines and a 499-byte base held 2.8 GB), as
    /// small as that needs (a 32 KB base: 1 KiB chunks; a floor of 64 KiB let an 8 KB base
    /// hold 2.7 GB, a later sweep). `--base-field` needs no cap: the base is in the record.
    pub fn chunk_bytes(&self) -> usize {
        match &self.base {
            Base::Fixed(b) => self
                .chunk_size
                .min((BASE_OUTPUT_PER_CHUNK / (b.len() + 16)).max(1)),
            _ => self.chunk_size,
        }
    }
}

/// A failure that ends the run (exit status 1), naming the file and the cause.
#[derive(Debug)]
pub enum Fatal {
    /// The input could not be opened or read.
    Input(String, io::Error),
    /// The output could not be created or written.
    Output(String, io::Error),
    /// The error report could not be created or written.
    Report(String, io::Error),
    /// The reader of our output went away (e.g. `| head`): a quiet success.
    BrokenPipe,
    /// The options cannot work together (exit status 2); found before any input is read.
    Usage(String),
    /// Anything else.
    Other(String),
}

impl fmt::Display for Fatal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fatal::Input(n, e) => write!(f, "cannot read input {n}: {e}"),
            Fatal::Output(n, e) if is_efault(e) => write!(
                f,
                "cannot write output {n}: {e}: the lines written straight from a mapped \
                 input were no longer there, so an input file was most likely truncated while \
                 iribulk read it; use --no-mmap for a file that another process may change"
            ),
            Fatal::Output(n, e) => write!(f, "cannot write output {n}: {e}"),
            Fatal::Report(n, e) => write!(f, "cannot write error report {n}: {e}"),
            Fatal::BrokenPipe => write!(f, "output closed early"),
            Fatal::Usage(s) => f.write_str(s),
            Fatal::Other(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for Fatal {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Fatal::Input(_, e) | Fatal::Output(_, e) | Fatal::Report(_, e) => Some(e),
            Fatal::BrokenPipe | Fatal::Usage(_) | Fatal::Other(_) => None,
        }
    }
}

/// EFAULT from a write: on Linux, what `write` returns when the bytes it was given lie in
/// pages that a truncated, mapped input lost (clean lines are written as slices of the map;
/// a worker that touches such a page gets SIGBUS instead, [`super::sigbus`]).
fn is_efault(e: &io::Error) -> bool {
    cfg!(target_os = "linux") && e.raw_os_error() == Some(14)
}

fn name(p: &Option<PathBuf>, std: &str) -> String {
    match p {
        Some(p) if p.as_os_str() != "-" => format!("'{}'", p.display()),
        _ => std.to_string(),
    }
}

/// The report's name in a message: the file, or where `--errors -` goes (stdout when `--out`
/// is a file, else stderr). It was empty for `-` when a write failed (found by a QA sweep).
fn report_name(opts: &RunOptions) -> String {
    match &opts.errors {
        Some(p) if p.as_os_str() != "-" => format!("'{}'", p.display()),
        _ if opts.errors_to_stdout() => "'-' (stdout)".to_string(),
        _ => "'-' (stderr)".to_string(),
    }
}

fn out_err(n: &str, e: io::Error) -> Fatal {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Fatal::BrokenPipe
    } else {
        Fatal::Output(n.to_string(), e)
    }
}

impl RunOptions {
    /// True when the error report goes to stdout: `--errors -` with the output in a file.
    /// (With the output on stdout, `--errors -` goes to stderr.) An output named
    /// `/dev/stdout`, `/dev/fd/1` or `/proc/self/fd/1` is stdout too: README "Shell habits"
    /// sends the report to stderr "when stdout carries the converted lines" (`--out
    /// /dev/stdout --errors -` was refused as the same file twice: found by a QA sweep).
    pub fn errors_to_stdout(&self) -> bool {
        let out_is_std = self
            .output
            .as_ref()
            .is_none_or(|p| super::input::names_stdout(p));
        self.errors.as_ref().is_some_and(|p| p.as_os_str() == "-") && !out_is_std
    }

    /// True when the error report goes to stderr: `--errors -` with the output on stdout.
    pub fn errors_to_stderr(&self) -> bool {
        self.errors.as_ref().is_some_and(|p| p.as_os_str() == "-") && !self.errors_to_stdout()
    }

    /// The outputs of the run as (option name, path) for [`output::check_outputs`]: the
    /// output (absent: stdout) and the error report when it is given and not on stderr. A
    /// caller with more outputs (a stats file) adds them to the list before checking.
    pub fn output_options(&self) -> Vec<(&'static str, Option<&Path>)> {
        let mut v = vec![("--out", self.output.as_deref())];
        if let Some(e) = &self.errors {
            if e.as_os_str() != "-" || self.errors_to_stdout() {
                v.push(("--errors", Some(e.as_path())));
            }
        }
        v
    }
}

/// The name of an input in report rows: the path as given, its bytes (on Unix; a name that
/// is not UTF-8 is escaped when written), `-` for stdin.
fn report_file_name(p: Option<&Path>) -> Vec<u8> {
    match p {
        #[cfg(unix)]
        Some(p) => std::os::unix::ffi::OsStrExt::as_bytes(p.as_os_str()).to_vec(),
        #[cfg(not(unix))]
        Some(p) => p.to_string_lossy().into_owned().into_bytes(),
        None => b"-".to_vec(),
    }
}

/// Why a `--charset-field` input that starts with a UTF-16 byte order mark is refused.
pub const UTF16_PER_RECORD: &str = "it starts with a UTF-16 byte order mark, and --charset-field \
     reads each record's bytes in the charset its label names: convert it to UTF-8 first \
     (iconv -f UTF-16 -t UTF-8), or read it without --charset-field";

fn input_msg_name(p: Option<&Path>) -> String {
    match p.filter(|p| p.as_os_str() != "-") {
        Some(p) => format!("'{}'", p.display()),
        None => "stdin".into(),
    }
}

/// Runs a whole conversion from `opts.inputs` (in order) to `opts.output`. The outputs are
/// checked ([`output::check_outputs`]) and every input file is looked up before anything is
/// read or written; an input that cannot be read ends the run with no output file written.
pub fn run(opts: &RunOptions) -> Result<Summary, Fatal> {
    run_with_progress(opts, None)
}

/// [`run`], telling `progress` how far each input has come.
pub fn run_with_progress(
    opts: &RunOptions,
    progress: Option<&dyn Progress>,
) -> Result<Summary, Fatal> {
    run_with_hook(opts, progress, &mut |_| Ok(()))
}

/// [`run_with_progress`], calling `before_commit` with the run's summary after the error
/// report is finished and before the output is renamed into place: the command writes its
/// `--stats-file` there (with [`Output::finish_deferred`] on the calling thread, so that
/// all are renamed at once), so that a summary that cannot be written (a full disk) leaves
/// an existing `--out` as it was, as a report that cannot be written does (found by a QA
/// sweep). Its error ends the run with [`Fatal::Other`], the output not renamed.
pub fn run_with_hook(
    opts: &RunOptions,
    progress: Option<&dyn Progress>,
    before_commit: &mut dyn FnMut(&Summary) -> Result<(), String>,
) -> Result<Summary, Fatal> {
    let start = Instant::now();
    let out_name = name(&opts.output, "stdout");
    output::check_outputs(&opts.output_options()).map_err(Fatal::Usage)?;
    let inputs: Vec<Option<&Path>> = if opts.inputs.is_empty() {
        vec![None]
    } else {
        opts.inputs
            .iter()
            .map(|p| Some(p.as_path()).filter(|p| p.as_os_str() != "-"))
            .collect()
    };
    for p in inputs.iter().flatten() {
        match std::fs::metadata(p) {
            Ok(m) if m.is_dir() => {
                return Err(Fatal::Input(
                    input_msg_name(Some(p)),
                    io::Error::new(io::ErrorKind::InvalidInput, "is a directory"),
                ))
            }
            Ok(_) => {}
            Err(e) => return Err(Fatal::Input(input_msg_name(Some(p)), e)),
        }
        input::check_compression(p).map_err(|e| Fatal::Input(input_msg_name(Some(p)), e))?;
    }
    output::check_not_inputs(&[("--errors", opts.errors.as_deref())], &inputs)
        .map_err(Fatal::Usage)?;
    let rep_name = report_name(opts);
    let mut report = match &opts.errors {
        Some(_) if opts.errors_to_stderr() => Some(Output::stderr()),
        Some(p) => Some(Output::open(Some(p))),
        None => None,
    }
    .transpose()
    .map_err(|e| Fatal::Report(rep_name.clone(), e))?;
    if let Some(r) = report.as_mut() {
        if let Err(e) = r.writer().write_all(opts.errors_format.header().as_bytes()) {
            if let Some(r) = report {
                r.abort();
            }
            return Err(Fatal::Report(rep_name, e));
        }
    }
    let mut output = match Output::open(opts.output.as_deref()) {
        Ok(o) => o,
        Err(e) => {
            if let Some(r) = report {
                r.abort();
            }
            return Err(out_err(&out_name, e));
        }
    };
    let r = convert_all(
        &inputs,
        &mut output,
        report.as_mut(),
        opts,
        &out_name,
        progress,
    );
    let summary = match r {
        Ok(mut s) => {
            s.elapsed = start.elapsed();
            s
        }
        Err(e) => {
            output.abort();
            if let Some(r) = report {
                r.abort();
            }
            return Err(e);
        }
    };
    // Every output is written and flushed first, then all are renamed into place at once
    // (`output::commit_pending`), or none if a signal comes first: a run never ends with a new
    // report beside an old output (found by a QA sweep: SIGTERM between two renames did).
    // The report first: a report that cannot be finished (a full disk) ends the run before
    // the output is renamed into place, so an existing --out stays as it was (found by a QA
    // sweep: the output was replaced, then the report failed with status 1).
    if let Some(r) = report {
        if let Err(e) = r.finish_deferred() {
            output.abort();
            return Err(Fatal::Report(rep_name, e));
        }
    }
    // The command's `--stats-file` is written here, deferred as well
    // ([`Output::finish_deferred`]).
    if let Err(msg) = before_commit(&summary) {
        output.abort();
        output::abort_pending();
        return Err(Fatal::Other(msg));
    }
    if summary.stopped_at_error || summary.output_closed {
        // A run stopped by --on-error fail leaves no complete-looking output file; a closed
        // output pipe takes nothing more (the report is still finished: the rows of the
        // lines before the stop, not the last run's report; found by a QA sweep).
        output.abort();
    } else if let Err(e) = output.finish_deferred() {
        output::abort_pending();
        return Err(out_err(&out_name, e));
    }
    if let Err((path, e)) = output::commit_pending() {
        return Err(if opts.output.as_deref() == Some(path.as_path()) {
            out_err(&out_name, e)
        } else {
            Fatal::Other(format!(
                "cannot rename '{}' into place: {e}",
                path.display()
            ))
        });
    }
    Ok(summary)
}

/// A progress display, called by [`run_with_progress`] from the window loop and, for a
/// stream, from a ticker thread (hence `Sync`). Positions are in bytes of one input: for a
/// mapped file, decompressed bytes done out of the file's size; for a stream of known size
/// (`.gz`, `.zst`, `--no-mmap`), the file's bytes read (compressed bytes for compressed files);
/// for stdin or a pipe, the bytes read, with no total. The command's indicatif bar implements
/// it; a library caller can log, or forward to its own UI.
pub trait Progress: Sync {
    /// A new input starts; `total` is its size in bytes when known.
    fn start(&self, total: Option<u64>);
    /// `n` more bytes of a mapped input were converted and written.
    fn advance(&self, n: u64);
    /// A stream has read `done` bytes of its file so far (sampled every 200 ms).
    fn set_position(&self, done: u64);
    /// The input is finished: clear the display.
    fn finish(&self);
}

/// Samples a stream's read counter into `progress` every 200 ms until `stop` is dropped.
fn tick(
    progress: &dyn Progress,
    read: &std::sync::atomic::AtomicU64,
    stop: std::sync::mpsc::Receiver<()>,
) {
    loop {
        progress.set_position(read.load(Ordering::Relaxed));
        match stop.recv_timeout(std::time::Duration::from_millis(200)) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => break,
        }
    }
}

/// Converts each input in turn into `output`; the counts add up over all inputs.
fn convert_all(
    inputs: &[Option<&Path>],
    output: &mut Output,
    mut report: Option<&mut Output>,
    opts: &RunOptions,
    out_name: &str,
    progress: Option<&dyn Progress>,
) -> Result<Summary, Fatal> {
    let mut total = Summary::default();
    let mut out = LastByte {
        inner: output.writer(),
        last: None,
        pending: false,
    };
    for &inp in inputs {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        // Charset hook (issue 12): UTF-16 input is streamed through a transcoder to UTF-8.
        let utf16 = opts.engine.charset.and_then(|c| c.stream_charset());
        let (source, size) = input::open_counted(inp, opts.no_mmap || utf16.is_some(), &read)
            .map_err(|e| Fatal::Input(input_msg_name(inp), e))?;
        // Without --charset, or with a fixed legacy one, a UTF-16 byte order mark picks
        // UTF-16 (WHATWG Encoding §6 decode: BOM sniffing, which wins over the given
        // encoding): the input is read as with `--charset utf-16` (under `--charset
        // shift_jis` it was split at the 0x0A bytes of UTF-16 code units; found by a QA
        // sweep). A UTF-8 mark is sniffed below.
        let per_record = opts.engine.charset.is_some_and(|c| c.per_record());
        let (source, bom16) =
            if per_record || opts.engine.charset.is_none_or(|c| c.utf16_bom_decides()) {
                input::sniff_utf16_bom(source).map_err(|e| Fatal::Input(input_msg_name(inp), e))?
            } else {
                (source, false)
            };
        // `--charset-field` reads each record's bytes in the record's own charset, which a
        // UTF-16 file cannot give (its labels are UTF-16 too): such an input is refused
        // before a line is written, with what to do, instead of every record failing
        // `unknown-charset` without a word of UTF-16 (found by a QA sweep).
        if bom16 && per_record {
            return Err(Fatal::Input(
                input_msg_name(inp),
                std::io::Error::new(std::io::ErrorKind::InvalidData, UTF16_PER_RECORD),
            ));
        }
        let utf16_opts;
        let (opts, utf16) = if bom16 {
            let cs = crate::charset::Charset::for_label(b"utf-16le").expect("a WHATWG label");
            let mut o = opts.clone();
            o.engine.charset = Some(crate::charset::LegacyInput {
                source: crate::charset::CharsetSource::Fixed(cs),
                query_charset: Default::default(),
            });
            utf16_opts = o;
            (&utf16_opts, Some(cs))
        } else {
            (opts, utf16)
        };
        // A UTF-8 BOM wins over a fixed legacy `--charset` (WHATWG Encoding §6 decode): this
        // input is read as UTF-8 (it was decoded as windows-1252, `Ã©` for `é`, without a
        // report; found by a QA sweep). So it does over a fixed `--charset utf-16le/be`: read
        // as it is, not through the UTF-16 reader, which decoded it as UTF-8 but made every
        // invalid byte `FF` (`C0 AF E9` was written `FF FF FF`; found by a QA sweep).
        let sniff8 = !bom16
            && opts
                .engine
                .charset
                .is_some_and(|c| c.bom_decides() || c.stream_charset().is_some());
        let (source, bom) = if sniff8 {
            input::sniff_utf8_bom(source).map_err(|e| Fatal::Input(input_msg_name(inp), e))?
        } else {
            (source, false)
        };
        let source = input::wrap_utf16(source, utf16.filter(|_| !bom));
        let utf8_opts;
        let opts = if bom {
            let mut o = opts.clone();
            o.engine.charset = None;
            utf8_opts = o;
            &utf8_opts
        } else {
            opts
        };
        let stream = matches!(source, Source::Stream(_));
        let r = std::thread::scope(|scope| {
            let ticker = progress.filter(|_| stream).map(|p| {
                let (stop, rx) = mpsc::channel::<()>();
                let read = &read;
                (stop, scope.spawn(move || tick(p, read, rx)))
            });
            if let Some(p) = progress {
                p.start(size);
            }
            let r = convert_source(
                source,
                &mut out,
                report.as_mut().map(|w| w.writer()),
                opts,
                inp,
                out_name,
                progress,
            );
            if let Some((stop, t)) = ticker {
                drop(stop);
                let _ = t.join();
            }
            if let Some(p) = progress {
                p.finish();
            }
            r
        });
        let s = r?;
        // A file whose last line has no line end: a LF before the next byte written, so
        // that its last line is not joined to the first line the next inputs write (the
        // summary counts them as two lines; README "Several files"). Nothing is added when
        // nothing follows.
        out.pending = out.last.is_some_and(|b| b != b'\n');
        total.stats.add(&s.stats);
        total.threads = s.threads;
        total.stopped_at_error = s.stopped_at_error;
        total.stopped_by = s.stopped_by;
        total.output_closed = s.output_closed;
        if s.stopped_at_error || s.output_closed {
            break;
        }
    }
    Ok(total)
}

/// The output of all inputs ([`convert_all`]): it remembers the last byte written, and
/// writes a LF before the next byte when `pending` (set after an input whose output did not
/// end with one).
struct LastByte<'a> {
    inner: &'a mut (dyn Write + Send),
    last: Option<u8>,
    pending: bool,
}

impl LastByte<'_> {
    /// The pending LF, when `len` bytes are about to be written.
    fn settle(&mut self, len: usize) -> io::Result<()> {
        if self.pending && len > 0 {
            self.inner.write_all(b"\n")?;
            self.pending = false;
            self.last = Some(b'\n');
        }
        Ok(())
    }
}

impl Write for LastByte<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.settle(buf.len())?;
        let n = self.inner.write(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.settle(buf.len())?;
        self.inner.write_all(buf)?;
        if let Some(&b) = buf.last() {
            self.last = Some(b);
        }
        Ok(())
    }

    /// Forwarded as one vectored write (the chunks' clean runs go from the input to the
    /// writer uncopied); the last byte is the one at `n - 1` across the slices.
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.settle(bufs.iter().map(|b| b.len()).sum())?;
        let n = self.inner.write_vectored(bufs)?;
        let mut rest = n;
        for b in bufs {
            if rest <= b.len() {
                if rest > 0 {
                    self.last = Some(b[rest - 1]);
                }
                break;
            }
            rest -= b.len();
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The chunks alive at once (cut, converting, or converted and waiting for their turn to be
/// written) when the options leave it at 0 (the command line always does): four for one
/// thread, eight per thread from two threads on (128 chunks of 1 MiB and their output on
/// 16 threads). The same memory as the two windows of the loop this replaced, which made
/// every worker wait at the end of each window for the slowest chunk of it: on a 16-core
/// Xeon, check on real data (`real_files_and_shortener.txt` ×146, whose 1 MiB chunks differ
/// in cost) ran only 1.44× faster on two threads than on one while to-uri on `intl_cldr`
/// (chunks of even cost) ran 2.00× (issue 11, `scripts/device-scaling`). Now a worker
/// takes the next chunk as soon as it is done with one.
pub fn default_window(threads: usize) -> usize {
    if threads <= 1 {
        4
    } else {
        8 * threads
    }
}

/// One chunk on its way through the pipeline; its buffers are reused for later chunks.
struct Slot {
    range: Range<usize>,
    buf: Vec<u8>,
    kind: StreamChunk,
    res: ChunkOut,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            range: 0..0,
            buf: Vec::new(),
            kind: StreamChunk::Lines,
            res: ChunkOut::default(),
        }
    }

    /// The chunk's input bytes: a range of the map, or the slot's own buffer (streamed).
    fn data<'a>(&'a self, all: &'a [u8]) -> &'a [u8] {
        Slot::input(&self.range, &self.buf, all)
    }

    /// The chunk's input bytes and its result, to convert it.
    fn parts<'a>(&'a mut self, all: &'a [u8]) -> (&'a [u8], &'a mut ChunkOut) {
        (Slot::input(&self.range, &self.buf, all), &mut self.res)
    }

    fn input<'a>(range: &Range<usize>, buf: &'a [u8], all: &'a [u8]) -> &'a [u8] {
        if buf.is_empty() {
            &all[range.clone()]
        } else {
            buf
        }
    }
}

/// Converts an opened source into `out`, writing report rows into `report`. The engine of
/// [`run`], exposed so that tests can drive every input path with in-memory output. `input`
/// is the path the source was opened from (`None`: stdin), for messages and the report's
/// file column; report line numbers count from 1 within this source.
///
/// A fixed set of slots ([`default_window`]) carries the chunks: the input is cut into chunks
/// at line ends (or read, streamed) into free slots and each is handed to the pool; a pool
/// thread converts it with its own [`Worker`] and passes it back; [`Ordered`] writes the
/// chunks in input order (holding any that finish early until their turn) and frees their
/// slots. Memory stays bounded by the slots; no worker waits for another's chunk.
///
/// A mapped input is cut and written by the calling thread alone ([`convert_mapped`]); a
/// stream is read by the calling thread and written by a writer thread, so that a read that
/// waits on a slow producer never holds back the output of chunks already converted.
pub fn convert_source(
    source: Source,
    out: &mut (dyn Write + Send),
    report: Option<&mut (dyn Write + Send)>,
    opts: &RunOptions,
    input: Option<&Path>,
    out_name: &str,
    progress: Option<&dyn Progress>,
) -> Result<Summary, Fatal> {
    let in_name = &input_msg_name(input);
    let start = Instant::now();
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    }
    .min(MAX_THREADS);
    let slots = if opts.window == 0 {
        default_window(threads)
    } else {
        opts.window
    }
    .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Fatal::Other(format!("cannot start {threads} threads: {e}")))?;
    // One worker (converter + host cache + classifier) per pool thread.
    let workers: Vec<Mutex<Worker>> = (0..threads)
        .map(|_| {
            let mut w = Worker::new(opts.engine);
            w.set_base(opts.base.clone());
            Mutex::new(w)
        })
        .collect();
    let job = Job {
        pool: &pool,
        workers: &workers,
    };
    let ordered = |all, progress| Ordered {
        st: State {
            stats: Stats::default(),
            line_base: 0,
            scratch: String::new(),
            file: report_file_name(input),
            stopped: false,
            stopped_by: None,
            closed: false,
        },
        progress,
        waiting: (0..slots).map(|_| None).collect(),
        next: 0,
        all,
        out: &mut *out,
        report: report.map(|r| r as &mut (dyn Write + Send)),
        opts,
        out_name,
    };
    let st = match source {
        Source::Mapped(m) => convert_mapped(&job, ordered(m.bytes(), progress))?,
        Source::Stream(r) => {
            let ch = StreamChunker::new(r, opts.chunk_bytes(), opts.engine.max_line_bytes);
            // A stream's progress is the bytes read from its file, counted by the input
            // (run's ticker).
            convert_stream(&job, ordered(&[], None), ch, in_name)?
        }
    };
    Ok(Summary {
        stats: st.stats,
        elapsed: start.elapsed(),
        threads,
        stopped_at_error: st.stopped && !st.closed,
        stopped_by: st.stopped_by.filter(|_| !st.closed),
        output_closed: st.closed,
    })
}

/// What every chunk's conversion needs: the pool and a [`Worker`] per pool thread.
struct Job<'a> {
    pool: &'a rayon::ThreadPool,
    workers: &'a [Mutex<Worker>],
}

/// A converted chunk, or `None` where its conversion panicked (the pool's scope then ends
/// the run with that panic once its jobs are done).
type Done = (usize, Option<Slot>);

/// Sends a spawned chunk's slot back when the job ends, also by a panic (then without the
/// slot: `std::thread::panicking` in its drop), so that whoever waits for it is never left
/// waiting.
struct SendBack {
    seq: usize,
    slot: Option<Slot>,
    tx: mpsc::Sender<Done>,
}

impl Drop for SendBack {
    fn drop(&mut self) {
        let slot = self.slot.take().filter(|_| !std::thread::panicking());
        let _ = self.tx.send((self.seq, slot));
    }
}

impl Job<'_> {
    /// Converts chunk `seq` in `s` on the pool (`all`: the mapped input, or empty) and sends
    /// it to `done`; a chunk that is not lines (a long line's piece) goes straight on.
    fn spawn<'s>(
        &'s self,
        sc: &rayon::Scope<'s>,
        all: &'s [u8],
        seq: usize,
        s: Slot,
        done: &mpsc::Sender<Done>,
    ) {
        if s.kind != StreamChunk::Lines {
            let _ = done.send((seq, Some(s)));
            return;
        }
        let workers = self.workers;
        let mut back = SendBack {
            seq,
            slot: Some(s),
            tx: done.clone(),
        };
        sc.spawn(move |_| {
            let i = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let mut w = workers[i].lock().unwrap_or_else(|e| e.into_inner());
            if let Some(s) = back.slot.as_mut() {
                let (data, res) = s.parts(all);
                w.convert_chunk(data, res);
            }
        });
    }
}

/// A mapped input: the calling thread cuts chunks into free slots, hands them to the pool,
/// and writes them in order as they come back. One thread besides the workers, woken once
/// a chunk; a separate cutter and writer were two, and a wake-up each (issue 11). On one
/// CPU (`taskset -c 1`, `--threads 1`, best of 11 alternated) the per-chunk cost fell from
/// ~16–24 µs to ~10 µs (`--chunk-size` 256K / 1M / 4M): to-uri on real data ×40 ran ×1.03
/// and ×1.04 faster to `/dev/null` (both orders) and to a tmpfs file, `intl_cldr` ×1.00;
/// two threads on two CPUs switch context a third less, at the same speed.
fn convert_mapped(job: &Job, mut ord: Ordered<'_>) -> Result<State, Fatal> {
    let (all, chunk_size, slots) = (ord.all, ord.opts.chunk_bytes(), ord.waiting.len());
    let mut pos = if all.starts_with(b"\xEF\xBB\xBF") {
        3
    } else {
        0
    };
    let mut free: Vec<Slot> = (0..slots).map(|_| Slot::new()).collect();
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let mut failed = None;
    job.pool.in_place_scope(|sc| {
        let mut seq = 0usize;
        let mut in_flight = 0usize;
        loop {
            // Cut while a slot is free; none after the run stopped.
            while pos < all.len() && !ord.st.stopped {
                let Some(mut s) = free.pop() else {
                    break;
                };
                let end = input::next_mapped_chunk_end(all, pos, chunk_size);
                s.range = pos..end;
                s.buf.clear();
                s.kind = StreamChunk::Lines;
                pos = end;
                job.spawn(sc, all, seq, s, &done_tx);
                seq += 1;
                in_flight += 1;
            }
            if in_flight == 0 {
                break;
            }
            let (k, s) = done_rx.recv().expect("each job in flight sends once");
            in_flight -= 1;
            // None: the job panicked; the scope's end raises its panic.
            let Some(s) = s else {
                break;
            };
            let r = ord.take(k, s, |s| free.push(s));
            if let Err(e) = r {
                // The jobs in flight finish (the scope waits for them), unwritten.
                failed = Some(e);
                break;
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    ord.finish()
}

/// A stream: the calling thread reads chunks into free slots and hands them to the pool; a
/// writer thread writes them in order as they come back and frees their slots.
fn convert_stream(
    job: &Job,
    mut ord: Ordered<'_>,
    mut stream: StreamChunker,
    in_name: &str,
) -> Result<State, Fatal> {
    let slots = ord.waiting.len();
    let stop = AtomicBool::new(false);
    // Converted chunks, with their place in the input, to the writer; free slots back.
    let (done_tx, done_rx) = mpsc::channel::<Done>();
    let (free_tx, free_rx) = mpsc::channel::<Slot>();
    for _ in 0..slots {
        free_tx.send(Slot::new()).expect("receiver alive");
    }
    std::thread::scope(|scope| {
        let stop = &stop;
        let writer = scope.spawn(move || -> Result<State, Fatal> {
            let mut free_tx = Some(free_tx);
            for (seq, slot) in done_rx {
                // None: the job panicked; the pool's scope raises its panic.
                let Some(slot) = slot else {
                    break;
                };
                ord.take(seq, slot, |s| {
                    if let Some(tx) = &free_tx {
                        let _ = tx.send(s);
                    }
                })?;
                if ord.st.stopped && free_tx.is_some() {
                    // No more chunks are read; the ones under way are counted by `take`.
                    stop.store(true, Ordering::Relaxed);
                    free_tx = None;
                }
            }
            ord.finish()
        });
        let mut read_error = None;
        job.pool.in_place_scope(|sc| {
            let mut seq = 0usize;
            while !stop.load(Ordering::Relaxed) {
                // None when the writer has stopped (an error, or --on-error fail).
                let Ok(mut s) = free_rx.recv() else {
                    break;
                };
                match stream.next_chunk(&mut s.buf) {
                    Ok(Some(k)) => s.kind = k,
                    Ok(None) => break,
                    Err(e) => {
                        read_error = Some(Fatal::Input(in_name.to_string(), e));
                        break;
                    }
                }
                job.spawn(sc, &[], seq, s, &done_tx);
                seq += 1;
            }
        });
        drop(done_tx);
        let mut st = writer.join().expect("the writer thread does not panic")?;
        if let Some(e) = read_error {
            return Err(e);
        }
        if st.stopped {
            // Read after the lines handed out but not cut into a chunk before the stop (the
            // last line waiting for its LF or the end): read, not reached, as the chunks
            // under way (`Ordered::take`). The summary's `lines in` missed it when the stop
            // came before the stream's end (found by CI: 3 lines counted of 4).
            let n = stream.held_lines();
            st.stats.lines += n;
            st.stats.not_reached += n;
            st.stats.bytes += stream.held_bytes();
        }
        Ok(st)
    })
}

/// The writing side: converted chunks come in any order and leave in input order, to the
/// output and the report.
struct Ordered<'a> {
    st: State,
    /// Told of each chunk written (a mapped input's; a stream's comes from its reads).
    progress: Option<&'a dyn Progress>,
    /// Slots in flight hold at most `waiting.len()` consecutive chunk numbers (a slot is
    /// reused only after it is written), so `seq % waiting.len()` is a chunk's own place.
    waiting: Vec<Option<Slot>>,
    /// The next chunk to write.
    next: usize,
    /// The mapped input (a slot's range is in it), or empty for a stream.
    all: &'a [u8],
    out: &'a mut (dyn Write + Send),
    report: Option<&'a mut (dyn Write + Send)>,
    opts: &'a RunOptions,
    out_name: &'a str,
}

impl Ordered<'_> {
    /// Takes chunk `seq`, converted, and writes it and every chunk after it that is waiting,
    /// in order, handing each written slot to `free`. After the run stopped (an error under
    /// `--on-error fail`) the chunks converted alongside are counted as read, not reached,
    /// and their slots are not freed.
    fn take(&mut self, seq: usize, slot: Slot, mut free: impl FnMut(Slot)) -> Result<(), Fatal> {
        let slots = self.waiting.len();
        debug_assert!(seq >= self.next && seq < self.next + slots);
        self.waiting[seq % slots] = Some(slot);
        while let Some(s) = self.waiting[self.next % slots].take() {
            self.next += 1;
            if self.st.stopped {
                // Converted alongside the chunk that stopped the run: read, not reached
                // (the summary's equation counts them).
                let n = match s.kind {
                    StreamChunk::Lines => s.res.stats.lines,
                    StreamChunk::LongLine { first, .. } => u64::from(first),
                };
                self.st.stats.lines += n;
                self.st.stats.not_reached += n;
                // Its bytes were read too: `bytes` counts what `lines` counts (a QA sweep:
                // `| head -1` gave "100000 lines, 0 bytes").
                self.st.stats.bytes += s.data(self.all).len() as u64;
                continue;
            }
            let data = s.data(self.all);
            self.st.emit(
                data,
                &s,
                self.out,
                &mut self.report,
                self.out_name,
                self.opts,
            )?;
            if let Some(pb) = self.progress {
                pb.advance(data.len() as u64);
            }
            if !self.st.stopped {
                free(s);
            }
        }
        Ok(())
    }

    /// Flushes the output; the counts. A reader gone by then (`| head`) closes the run
    /// ([`State::closed`]) with the counts as they are.
    fn finish(mut self) -> Result<State, Fatal> {
        if let Err(e) = self.out.flush() {
            closed_or_fatal(e, self.out_name)?;
            self.st.close(0, 0);
        }
        Ok(self.st)
    }
}

struct State {
    stats: Stats,
    line_base: u64,
    scratch: String,
    /// The input's name in report rows.
    file: Vec<u8>,
    stopped: bool,
    /// The error that stopped the run (`--on-error fail`), as [`report::stop_line`] writes
    /// it, for the summary and the CLI's message.
    stopped_by: Option<String>,
    /// The reader of the output went away (a closed pipe): the run stops as for
    /// `--on-error fail` (`stopped` too), the chunk whose write failed and the ones after it
    /// read and not reached, and the report is still finished (found by a QA sweep:
    /// `| head -1` left the last run's `--errors` and `--stats-file` in place).
    closed: bool,
}

/// `e` on writing the output: `Ok` for a closed pipe, which ends the run ([`State::close`]),
/// the fatal error for anything else.
fn closed_or_fatal(e: io::Error, out_name: &str) -> Result<(), Fatal> {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(out_err(out_name, e))
    }
}

impl State {
    /// The output's reader went away while `lines` lines (`bytes` bytes) were being written:
    /// they count as read and not reached, and the run stops.
    fn close(&mut self, lines: u64, bytes: u64) {
        self.stats.lines += lines;
        self.stats.bytes += bytes;
        self.stats.not_reached += lines;
        self.line_base += lines;
        self.stopped = true;
        self.closed = true;
    }

    fn emit(
        &mut self,
        data: &[u8],
        s: &Slot,
        out: &mut (dyn Write + Send),
        report: &mut Option<&mut (dyn Write + Send)>,
        out_name: &str,
        opts: &RunOptions,
    ) -> Result<(), Fatal> {
        let rep_err = |e| Fatal::Report(report_name(opts), e);
        match s.kind {
            StreamChunk::Lines => {
                if let Err(e) = s.res.write_to(data, out) {
                    closed_or_fatal(e, out_name)?;
                    self.close(s.res.stats.lines, data.len() as u64);
                    return Ok(());
                }
                // The error that stops the run (`--on-error fail`): the chunk's last error.
                let stop = if s.res.failed {
                    s.res.issues.iter().rposition(|is| !is.warning)
                } else {
                    None
                };
                for (k, is) in s.res.issues.iter().enumerate() {
                    if report.is_none() && stop != Some(k) {
                        continue;
                    }
                    let line = &data[is.start..is.start + is.len];
                    let readings = crate::engine::report::readings_of_row(
                        is.err.kind,
                        line,
                        opts.engine.field,
                        opts.engine.to_uri.host,
                    );
                    let row = Row {
                        file: &self.file,
                        line: self.line_base + is.line + 1,
                        column: is.err.offset as u64 + 1,
                        kind: is.err.kind,
                        warning: is.warning,
                        input: line,
                        readings: readings.as_deref(),
                        records: opts.engine.field.is_some(),
                        legacy: opts.engine.charset.is_some_and(|c| c.decodes_lines()),
                    };
                    if stop == Some(k) && self.stopped_by.is_none() {
                        self.stopped_by = Some(report::stop_line(&row));
                    }
                    if let Some(w) = report.as_mut() {
                        report::write_row(*w, opts.errors_format, &row, &mut self.scratch)
                            .map_err(rep_err)?;
                    }
                }
                self.stats.add(&s.res.stats);
                self.line_base += s.res.stats.lines;
                if s.res.failed {
                    self.stopped = true;
                }
            }
            StreamChunk::LongLine { first, last } => {
                // A line over the cap, streamed in pieces (never held whole).
                self.stats.bytes += data.len() as u64;
                if first {
                    self.stats.lines += 1;
                    self.line_base += 1;
                    self.stats.error_lines += 1;
                    self.stats.by_code[ErrorKind::LineTooLong.index()] += 1;
                    match opts.engine.error_policy() {
                        OnError::Keep => self.stats.written += 1,
                        OnError::Skip => self.stats.skipped += 1,
                        OnError::Fail => {
                            self.stats.skipped += 1;
                            self.stopped = true;
                        }
                    }
                    let row = Row {
                        file: &self.file,
                        line: self.line_base,
                        column: opts.engine.max_line_bytes as u64 + 1,
                        kind: ErrorKind::LineTooLong,
                        warning: false,
                        input: data,
                        readings: None,
                        records: opts.engine.field.is_some(),
                        legacy: opts.engine.charset.is_some_and(|c| c.decodes_lines()),
                    };
                    if self.stopped && self.stopped_by.is_none() {
                        self.stopped_by = Some(report::stop_line(&row));
                    }
                    if let Some(w) = report.as_mut() {
                        report::write_row(*w, opts.errors_format, &row, &mut self.scratch)
                            .map_err(rep_err)?;
                    }
                }
                let _ = last;
                if opts.engine.error_policy() == OnError::Keep {
                    if let Err(e) = out.write_all(data) {
                        closed_or_fatal(e, out_name)?;
                        // The line is counted (as written, its report row given).
                        self.close(0, 0);
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed base caps the chunk so that a chunk of empty lines, each written as the whole
    /// base, stays near [`BASE_OUTPUT_PER_CHUNK`] (a QA sweep: 2.8 GB for 4 MB); a short
    /// base keeps the chunk asked for; a base field changes nothing.
    #[test]
    fn a_fixed_base_caps_the_chunk() {
        let with = |base: Base, chunk_size| RunOptions {
            base,
            chunk_size,
            ..RunOptions::default()
        };
        let fixed = |n: usize| Base::Fixed(std::sync::Arc::from(vec![b'a'; n]));
        assert_eq!(with(Base::None, 1 << 20).chunk_bytes(), 1 << 20);
        assert_eq!(with(Base::Field(0), 64 << 20).chunk_bytes(), 64 << 20);
        assert_eq!(with(fixed(16), 1 << 20).chunk_bytes(), 1 << 20);
        let c = with(fixed(200), 1 << 20).chunk_bytes();
        assert!(
            c < 1 << 20 && c * (200 + 16) <= BASE_OUTPUT_PER_CHUNK,
            "{c}"
        );
        assert_eq!(with(fixed(32 << 10), 1 << 20).chunk_bytes(), 1023);
        assert_eq!(with(fixed(64 << 20), 1 << 20).chunk_bytes(), 1);
        assert_eq!(with(fixed(500), 4096).chunk_bytes(), 4096);
    }

    /// A job's [`SendBack`] answers for its chunk however the job ends: the converted slot
    /// when it finished, `None` when it panicked first, so that the thread waiting on the
    /// channel (the cutting and writing thread of a mapped input) is never left waiting.
    #[test]
    fn send_back_answers_also_for_a_panicking_job() {
        let (tx, rx) = mpsc::channel::<Done>();
        drop(SendBack {
            seq: 7,
            slot: Some(Slot::new()),
            tx: tx.clone(),
        });
        let panicking = SendBack {
            seq: 8,
            slot: Some(Slot::new()),
            tx,
        };
        let r = std::thread::spawn(move || {
            let _back = panicking;
            panic!("a conversion that fails");
        })
        .join();
        assert!(r.is_err());
        let got: Vec<(usize, bool)> = rx.iter().map(|(k, s)| (k, s.is_some())).collect();
        assert_eq!(got, [(7, true), (8, false)]);
    }
}
