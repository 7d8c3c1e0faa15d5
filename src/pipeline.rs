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
    let progress = (opts.progress && size.is_some()).then(|| {
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
        report.as_mut().map(|w| w as &mut dyn Write),
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
    worker: Worker,
    range: Range<usize>,
    buf: Vec<u8>,
    kind: StreamChunk,
    res: ChunkOut,
}

/// Converts an opened source into `out`, writing report rows into `report`. The engine of
/// [`run`], exposed so that tests can drive every input path with in-memory output.
pub fn convert_source(
    source: Source,
    out: &mut dyn Write,
    mut report: Option<&mut dyn Write>,
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
    let mut slots: Vec<Slot> = (0..window)
        .map(|_| Slot {
            worker: Worker::new(opts.engine),
            range: 0..0,
            buf: Vec::new(),
            kind: StreamChunk::Lines,
            res: ChunkOut::default(),
        })
        .collect();
    let mut st = State {
        stats: Stats::default(),
        line_base: 0,
        scratch: String::new(),
        stopped: false,
    };
    match source {
        Source::Mapped(m) => {
            let all = m.bytes();
            let mut pos = if all.starts_with(b"\xEF\xBB\xBF") {
                3
            } else {
                0
            };
            while pos < all.len() && !st.stopped {
                let mut filled = 0;
                for s in slots.iter_mut() {
                    if pos >= all.len() {
                        break;
                    }
                    let end = input::next_mapped_chunk_end(all, pos, opts.chunk_size);
                    s.range = pos..end;
                    s.kind = StreamChunk::Lines;
                    pos = end;
                    filled += 1;
                }
                pool.install(|| {
                    slots[..filled].par_iter_mut().for_each(|s| {
                        let data = &all[s.range.clone()];
                        s.worker.convert_chunk(data, &mut s.res);
                    })
                });
                for s in &slots[..filled] {
                    st.emit(&all[s.range.clone()], s, out, &mut report, out_name, opts)?;
                    if st.stopped {
                        break;
                    }
                }
                if let Some(pb) = progress {
                    pb.set_position(pos as u64);
                }
            }
        }
        Source::Stream(r) => {
            let mut ch = StreamChunker::new(r, opts.chunk_size, opts.engine.max_line_bytes);
            let mut eof = false;
            while !eof && !st.stopped {
                let mut filled = 0;
                for s in slots.iter_mut() {
                    match ch
                        .next_chunk(&mut s.buf)
                        .map_err(|e| Fatal::Input(in_name.to_string(), e))?
                    {
                        Some(k) => {
                            s.kind = k;
                            filled += 1;
                        }
                        None => {
                            eof = true;
                            break;
                        }
                    }
                }
                pool.install(|| {
                    slots[..filled].par_iter_mut().for_each(|s| {
                        if s.kind == StreamChunk::Lines {
                            s.worker.convert_chunk(&s.buf, &mut s.res);
                        }
                    })
                });
                for s in &slots[..filled] {
                    st.emit(&s.buf, s, out, &mut report, out_name, opts)?;
                    if st.stopped {
                        break;
                    }
                }
                if let Some(pb) = progress {
                    pb.set_position(ch.bytes_read());
                }
            }
        }
    }
    out.flush().map_err(|e| out_err(out_name, e))?;
    Ok(Summary {
        stats: st.stats,
        elapsed: start.elapsed(),
        threads,
        stopped_at_error: st.stopped,
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
        out: &mut dyn Write,
        report: &mut Option<&mut dyn Write>,
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
                    match opts.engine.on_error {
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
                if opts.engine.on_error == OnError::Keep {
                    out.write_all(data).map_err(|e| out_err(out_name, e))?;
                }
            }
        }
        Ok(())
    }
}
