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
    /// Worker threads; 0 means one per core. Default 0.
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

fn name(p: &Option<PathBuf>, std: &str) -> String {
    match p {
        Some(p) if p.as_os_str() != "-" => format!("'{}'", p.display()),
        _ => std.to_string(),
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
    /// (With the output on stdout, `--errors -` goes to stderr.)
    pub fn errors_to_stdout(&self) -> bool {
        let out_is_std = self.output.as_ref().is_none_or(|p| p.as_os_str() == "-");
        self.errors.as_ref().is_some_and(|p| p.as_os_str() == "-") && !out_is_std
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

/// The name of an input in report rows: the path as given, `-` for stdin.
fn report_file_name(p: Option<&Path>) -> String {
    match p {
        Some(p) => p.to_string_lossy().into_owned(),
        None => "-".into(),
    }
}

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
    }
    let rep_name = name(&opts.errors, "stderr");
    let mut report = match &opts.errors {
        Some(p) if p.as_os_str() == "-" && !opts.errors_to_stdout() => Some(Output::stderr()),
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
    if summary.stopped_at_error {
        // A run stopped by --on-error fail leaves no complete-looking output file.
        output.abort();
    } else if let Err(e) = output.finish() {
        if let Some(r) = report {
            r.abort();
        }
        return Err(out_err(&out_name, e));
    }
    if let Some(r) = report {
        r.finish().map_err(|e| Fatal::Report(rep_name, e))?;
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
    for &inp in inputs {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        // Charset hook (issue 12): UTF-16 input is streamed through a transcoder to UTF-8.
        let utf16 = opts.engine.charset.and_then(|c| c.stream_charset());
        let (source, size) = input::open_counted(inp, opts.no_mmap || utf16.is_some(), &read)
            .map_err(|e| Fatal::Input(input_msg_name(inp), e))?;
        let source = input::wrap_utf16(source, utf16);
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
                output.writer(),
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
        total.stats.add(&s.stats);
        total.threads = s.threads;
        total.stopped_at_error = s.stopped_at_error;
        if s.stopped_at_error {
            break;
        }
    }
    Ok(total)
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
/// Three parties and a fixed set of slots ([`default_window`]): the calling thread cuts the
/// input into chunks at line ends (or reads them, streamed) into free slots and hands each to
/// the pool; a pool thread converts it with its own [`Worker`] and passes it to the writer
/// thread, which writes the chunks in input order (holding any that finish early until their
/// turn) and frees their slots. Memory stays bounded by the slots; no worker waits for
/// another's chunk.
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
    let file = report_file_name(input);
    let start = Instant::now();
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
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
    let (mapped, mut stream) = match source {
        Source::Mapped(m) => (Some(m), None),
        Source::Stream(r) => (
            None,
            Some(StreamChunker::new(
                r,
                opts.chunk_size,
                opts.engine.max_line_bytes,
            )),
        ),
    };
    let all: &[u8] = mapped.as_ref().map_or(&[], |m| m.bytes());
    // A stream's progress is the bytes read from its file, counted by the input (run's ticker).
    let progress = progress.filter(|_| mapped.is_some());
    let stop = AtomicBool::new(false);
    // Converted chunks, with their place in the input, to the writer; free slots back.
    let (done_tx, done_rx) = mpsc::channel::<(usize, Slot)>();
    let (free_tx, free_rx) = mpsc::channel::<Slot>();
    for _ in 0..slots {
        free_tx.send(Slot::new()).expect("receiver alive");
    }
    std::thread::scope(|scope| {
        let stop = &stop;
        let writer = scope.spawn(move || -> Result<State, Fatal> {
            let mut report = report;
            let mut st = State {
                stats: Stats::default(),
                line_base: 0,
                scratch: String::new(),
                file,
                stopped: false,
            };
            // Slots in flight hold at most `slots` consecutive chunk numbers (a slot is
            // reused only after it is written), so `seq % slots` is a chunk's own place.
            let mut waiting: Vec<Option<Slot>> = (0..slots).map(|_| None).collect();
            let mut next = 0usize;
            let mut free_tx = Some(free_tx);
            for (seq, slot) in done_rx {
                debug_assert!(seq >= next && seq < next + slots);
                waiting[seq % slots] = Some(slot);
                while let Some(s) = waiting[next % slots].take() {
                    next += 1;
                    if st.stopped {
                        // Converted alongside the chunk that stopped the run: read, not
                        // reached (the summary's equation counts them).
                        let n = match s.kind {
                            StreamChunk::Lines => s.res.stats.lines,
                            StreamChunk::LongLine { first, .. } => u64::from(first),
                        };
                        st.stats.lines += n;
                        st.stats.not_reached += n;
                        continue;
                    }
                    let data = s.data(all);
                    st.emit(data, &s, out, &mut report, out_name, opts)?;
                    if let Some(pb) = progress {
                        pb.advance(data.len() as u64);
                    }
                    if st.stopped {
                        // No more chunks are cut; the ones under way are counted above.
                        stop.store(true, Ordering::Relaxed);
                        free_tx = None;
                        continue;
                    }
                    if let Some(tx) = &free_tx {
                        let _ = tx.send(s);
                    }
                }
            }
            out.flush().map_err(|e| out_err(out_name, e))?;
            Ok(st)
        });
        let mut pos = if all.starts_with(b"\xEF\xBB\xBF") {
            3
        } else {
            0
        };
        let mut read_error = None;
        let workers = &workers;
        pool.in_place_scope(|sc| {
            let mut seq = 0usize;
            while !stop.load(Ordering::Relaxed) {
                // None when the writer has stopped (an error, or --on-error fail).
                let Ok(mut s) = free_rx.recv() else {
                    break;
                };
                if let Some(ch) = stream.as_mut() {
                    match ch.next_chunk(&mut s.buf) {
                        Ok(Some(k)) => s.kind = k,
                        Ok(None) => break,
                        Err(e) => {
                            read_error = Some(Fatal::Input(in_name.to_string(), e));
                            break;
                        }
                    }
                } else {
                    if pos >= all.len() {
                        break;
                    }
                    let end = input::next_mapped_chunk_end(all, pos, opts.chunk_size);
                    s.range = pos..end;
                    s.buf.clear();
                    s.kind = StreamChunk::Lines;
                    pos = end;
                }
                let done = done_tx.clone();
                if s.kind == StreamChunk::Lines {
                    sc.spawn(move |_| {
                        let i = rayon::current_thread_index().unwrap_or(0) % workers.len();
                        let mut w = workers[i].lock().unwrap_or_else(|e| e.into_inner());
                        let (data, res) = s.parts(all);
                        w.convert_chunk(data, res);
                        drop(w);
                        let _ = done.send((seq, s));
                    });
                } else {
                    let _ = done.send((seq, s));
                }
                seq += 1;
            }
        });
        drop(done_tx);
        let st = writer.join().expect("the writer thread does not panic")?;
        if let Some(e) = read_error {
            return Err(e);
        }
        Ok(Summary {
            stats: st.stats,
            elapsed: start.elapsed(),
            threads,
            stopped_at_error: st.stopped,
        })
    })
}

struct State {
    stats: Stats,
    line_base: u64,
    scratch: String,
    /// The input's name in report rows.
    file: String,
    stopped: bool,
}

impl State {
    fn emit(
        &mut self,
        data: &[u8],
        s: &Slot,
        out: &mut (dyn Write + Send),
        report: &mut Option<&mut (dyn Write + Send)>,
        out_name: &str,
        opts: &RunOptions,
    ) -> Result<(), Fatal> {
        let rep_err = |e| Fatal::Report(name(&opts.errors, ""), e);
        match s.kind {
            StreamChunk::Lines => {
                s.res
                    .write_to(data, out)
                    .map_err(|e| out_err(out_name, e))?;
                if let Some(w) = report.as_mut() {
                    for is in &s.res.issues {
                        let line = &data[is.start..is.start + is.len];
                        let readings = crate::convert::readings::readings(
                            is.err.kind,
                            line,
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
                        };
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
                    if let Some(w) = report.as_mut() {
                        let row = Row {
                            file: &self.file,
                            line: self.line_base,
                            column: opts.engine.max_line_bytes as u64 + 1,
                            kind: ErrorKind::LineTooLong,
                            warning: false,
                            input: data,
                            readings: None,
                        };
                        report::write_row(*w, opts.errors_format, &row, &mut self.scratch)
                            .map_err(rep_err)?;
                    }
                }
                let _ = last;
                if opts.engine.error_policy() == OnError::Keep {
                    out.write_all(data).map_err(|e| out_err(out_name, e))?;
                }
            }
        }
        Ok(())
    }
}
