//! The window loop: read chunks, convert a window of them in parallel, write them in input
//! order, report errors with global line numbers, and keep the counts.
//!
//! Peak memory ≈ window × (chunk size + converted bytes of a chunk); the buffers of each slot
//! are reused from one window to the next. A mapped input is never copied: clean runs are
//! written straight from the map.

use crate::engine::{ChunkOut, EngineOptions, OnError, Stats, Worker};
use crate::error::ErrorKind;
use crate::input::{self, Source, StreamChunk, StreamChunker};
use crate::output::Output;
use crate::report::{self, Summary};
use rayon::prelude::*;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

/// Options of a whole run (the CLI's `to-uri` mode).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Per-chunk conversion options.
    pub engine: EngineOptions,
    /// Input file; `None` or `-` for stdin. Default stdin.
    pub input: Option<PathBuf>,
    /// Output file; `None` or `-` for stdout. Default stdout.
    pub output: Option<PathBuf>,
    /// Error report (TSV). Default none.
    pub errors: Option<PathBuf>,
    /// Worker threads; 0 means one per core. Default 0.
    pub threads: usize,
    /// Target chunk size in bytes. Default 1 MiB.
    pub chunk_size: usize,
    /// Chunks in flight; 0 means 2 × threads. Default 0.
    pub window: usize,
    /// Stream regular files instead of mapping them. Default false.
    pub no_mmap: bool,
    /// Show a progress bar on stderr. Default false (the CLI turns it on for terminals).
    pub progress: bool,
    /// Resolve every reference against this base IRI first. Default none.
    pub base: Option<Vec<u8>>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            engine: EngineOptions::default(),
            input: None,
            output: None,
            errors: None,
            threads: 0,
            chunk_size: 1 << 20,
            window: 0,
            no_mmap: false,
            progress: false,
            base: None,
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
            Fatal::Other(s) => f.write_str(s),
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

/// Runs a whole conversion from `opts.input` to `opts.output`.
pub fn run(opts: &RunOptions) -> Result<Summary, Fatal> {
    let in_name = name(&opts.input, "stdin");
    let out_name = name(&opts.output, "stdout");
    let (source, size) = input::open(opts.input.as_deref(), opts.no_mmap)
        .map_err(|e| Fatal::Input(in_name.clone(), e))?;
    let mut report = match &opts.errors {
        Some(p) => {
            let f = File::create(p).map_err(|e| Fatal::Report(name(&opts.errors, ""), e))?;
            let mut w = BufWriter::new(f);
            w.write_all(report::HEADER.as_bytes())
                .map_err(|e| Fatal::Report(name(&opts.errors, ""), e))?;
            Some(w)
        }
        None => None,
    };
    let mut output = Output::open(opts.output.as_deref()).map_err(|e| out_err(&out_name, e))?;
    // Only a mapped input has a known size in the units we count (decompressed bytes).
    let progress = (opts.progress && matches!(source, Source::Mapped(_))).then(|| {
        let pb = indicatif::ProgressBar::new(size.unwrap_or(0));
        pb.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
            )
            .expect("valid template"),
        );
        pb
    });
    let r = convert_source(
        source,
        output.writer(),
        report.as_mut().map(|w| w as &mut (dyn Write + Send)),
        opts,
        &in_name,
        &out_name,
        progress.as_ref(),
    );
    if let Some(pb) = &progress {
        pb.finish_and_clear();
    }
    let summary = match r {
        Ok(s) => s,
        Err(e) => {
            output.abort();
            return Err(e);
        }
    };
    if let Some(mut w) = report {
        w.flush()
            .map_err(|e| Fatal::Report(name(&opts.errors, ""), e))?;
    }
    if summary.stopped_at_error {
        // A run stopped by --on-error fail leaves no complete-looking output file.
        output.abort();
    } else {
        output.finish().map_err(|e| out_err(&out_name, e))?;
    }
    Ok(summary)
}

struct Slot {
    range: Range<usize>,
    buf: Vec<u8>,
    kind: StreamChunk,
    res: ChunkOut,
}

/// A window of chunks: filled by the reader, converted by the pool, emptied by the writer,
/// and handed back for reuse (two batches live at a time: one converting, one writing).
struct Batch {
    slots: Vec<Slot>,
    filled: usize,
}

impl Batch {
    fn new(window: usize) -> Batch {
        Batch {
            slots: (0..window)
                .map(|_| Slot {
                    range: 0..0,
                    buf: Vec::new(),
                    kind: StreamChunk::Lines,
                    res: ChunkOut::default(),
                })
                .collect(),
            filled: 0,
        }
    }
}

/// Converts an opened source into `out`, writing report rows into `report`. The engine of
/// [`run`], exposed so that tests can drive every input path with in-memory output.
///
/// The calling thread reads and cuts chunks and has the pool convert a window of them; a
/// writer thread writes the previous window meanwhile, in input order.
pub fn convert_source(
    source: Source,
    out: &mut (dyn Write + Send),
    report: Option<&mut (dyn Write + Send)>,
    opts: &RunOptions,
    in_name: &str,
    out_name: &str,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<Summary, Fatal> {
    let start = Instant::now();
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
    let window = if opts.window == 0 {
        2 * threads
    } else {
        opts.window
    }
    .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Fatal::Other(format!("cannot start {threads} threads: {e}")))?;
    // One worker (converter + host cache + classifier) per pool thread.
    let base: Option<std::sync::Arc<[u8]>> = opts.base.as_deref().map(Into::into);
    let workers: Vec<Mutex<Worker>> = (0..threads)
        .map(|_| {
            let mut w = Worker::new(opts.engine);
            w.set_base(base.clone());
            Mutex::new(w)
        })
        .collect();
    let convert = |batch: &mut Batch, all: &[u8]| {
        pool.install(|| {
            batch.slots[..batch.filled].par_iter_mut().for_each(|s| {
                if s.kind != StreamChunk::Lines {
                    return;
                }
                let i = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut w = workers[i].lock().unwrap_or_else(|e| e.into_inner());
                let data = if s.buf.is_empty() {
                    &all[s.range.clone()]
                } else {
                    &s.buf[..]
                };
                w.convert_chunk(data, &mut s.res);
            })
        })
    };
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
    let stop = AtomicBool::new(false);
    let (full_tx, full_rx) = mpsc::sync_channel::<Batch>(1);
    let (empty_tx, empty_rx) = mpsc::channel::<Batch>();
    for _ in 0..2 {
        empty_tx.send(Batch::new(window)).expect("receiver alive");
    }
    std::thread::scope(|scope| {
        let stop = &stop;
        let writer = scope.spawn(move || -> Result<State, Fatal> {
            let mut report = report;
            let mut st = State {
                stats: Stats::default(),
                line_base: 0,
                scratch: String::new(),
                stopped: false,
            };
            for batch in full_rx {
                for s in &batch.slots[..batch.filled] {
                    let data = if s.buf.is_empty() {
                        &all[s.range.clone()]
                    } else {
                        &s.buf[..]
                    };
                    st.emit(data, s, out, &mut report, out_name, opts)?;
                    if st.stopped {
                        break;
                    }
                }
                if let Some(pb) = progress {
                    pb.inc(
                        batch.slots[..batch.filled]
                            .iter()
                            .map(|s| {
                                if s.buf.is_empty() {
                                    s.range.len()
                                } else {
                                    s.buf.len()
                                }
                            })
                            .sum::<usize>() as u64,
                    );
                }
                if st.stopped {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                let _ = empty_tx.send(batch);
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
        let mut eof = false;
        while !eof && !stop.load(Ordering::Relaxed) {
            let Ok(mut batch) = empty_rx.recv() else {
                break;
            };
            batch.filled = 0;
            for s in batch.slots.iter_mut() {
                if let Some(ch) = stream.as_mut() {
                    match ch.next_chunk(&mut s.buf) {
                        Ok(Some(k)) => s.kind = k,
                        Ok(None) => {
                            eof = true;
                            break;
                        }
                        Err(e) => {
                            read_error = Some(Fatal::Input(in_name.to_string(), e));
                            eof = true;
                            break;
                        }
                    }
                } else {
                    if pos >= all.len() {
                        eof = true;
                        break;
                    }
                    let end = input::next_mapped_chunk_end(all, pos, opts.chunk_size);
                    s.range = pos..end;
                    s.buf.clear();
                    s.kind = StreamChunk::Lines;
                    pos = end;
                }
                batch.filled += 1;
            }
            if batch.filled == 0 {
                break;
            }
            convert(&mut batch, all);
            if full_tx.send(batch).is_err() {
                break; // the writer stopped (an error, or --on-error fail)
            }
        }
        drop(full_tx);
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
                        report::write_row(
                            *w,
                            self.line_base + is.line + 1,
                            is.err.offset as u64 + 1,
                            is.err.kind,
                            is.warning,
                            line,
                            &mut self.scratch,
                        )
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
                        OnError::Fail => self.stopped = true,
                    }
                    if let Some(w) = report.as_mut() {
                        report::write_row(
                            *w,
                            self.line_base,
                            opts.engine.max_line_bytes as u64 + 1,
                            ErrorKind::LineTooLong,
                            false,
                            data,
                            &mut self.scratch,
                        )
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
