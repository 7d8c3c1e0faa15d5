//! A chunk's output: pieces (ranges of the input or of the converted bytes), the issues of its
//! lines, and the counts.

use crate::error::{ErrorKind, LineError};
use std::io::{self, Write};
use std::ops::Range;

/// One piece of a chunk's output: a range of the input chunk or of [`ChunkOut::out`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Bytes of the input, unchanged.
    Input(Range<usize>),
    /// Bytes of [`ChunkOut::out`].
    Output(Range<usize>),
}

/// A problem on one line, as the report needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineIssue {
    /// 0-based index of the line in the chunk.
    pub line: u64,
    /// Offset of the line's first byte in the chunk.
    pub start: usize,
    /// Length of the line without terminator.
    pub len: usize,
    /// The error or warning; its offset is relative to the line start.
    pub err: LineError,
    /// True for a warning (the line was converted).
    pub warning: bool,
}

/// Counters of a chunk (and, summed, of a run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Lines read.
    pub lines: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Lines the mode left exactly as read (`--valid-only`/`--invalid-only` may still drop
    /// them: then they are also [`Stats::skipped`]).
    pub passthrough: u64,
    /// Lines whose output differs from the input.
    pub converted: u64,
    /// Lines with at least one repair.
    pub repaired_lines: u64,
    /// Repairs (percent-encoded disallowed ASCII, LEIRI controls, invalid bytes).
    pub repairs: u64,
    /// Lines with at least one warning.
    pub warning_lines: u64,
    /// Hosts that fell back to percent-encoding.
    pub host_fallbacks: u64,
    /// Lines with an error.
    pub error_lines: u64,
    /// Lines left out of the output (`--on-error skip`).
    pub skipped: u64,
    /// Lines read but not reached because `--on-error fail` stopped the run before them (the
    /// rest of the chunk, and the chunks converted alongside it). Always
    /// `lines = written + skipped + not_reached`.
    pub not_reached: u64,
    /// Lines written (passthrough, converted, or kept with an error).
    pub written: u64,
    /// Errors and warnings by code, indexed like [`ErrorKind::ALL_CODES`].
    pub by_code: [u64; ErrorKind::ALL_CODES.len()],
}

// By hand: `[u64; N]` implements `Default` only up to N = 32, and there are more codes.
impl Default for Stats {
    fn default() -> Self {
        Stats {
            lines: 0,
            bytes: 0,
            passthrough: 0,
            converted: 0,
            repaired_lines: 0,
            repairs: 0,
            warning_lines: 0,
            host_fallbacks: 0,
            error_lines: 0,
            skipped: 0,
            not_reached: 0,
            written: 0,
            by_code: [0; ErrorKind::ALL_CODES.len()],
        }
    }
}

impl Stats {
    /// Adds `o` into `self`.
    pub fn add(&mut self, o: &Stats) {
        self.lines += o.lines;
        self.bytes += o.bytes;
        self.passthrough += o.passthrough;
        self.converted += o.converted;
        self.repaired_lines += o.repaired_lines;
        self.repairs += o.repairs;
        self.warning_lines += o.warning_lines;
        self.host_fallbacks += o.host_fallbacks;
        self.error_lines += o.error_lines;
        self.skipped += o.skipped;
        self.written += o.written;
        self.not_reached += o.not_reached;
        for (a, b) in self.by_code.iter_mut().zip(o.by_code.iter()) {
            *a += b;
        }
    }
}

/// The result of converting one chunk.
#[derive(Debug, Default)]
pub struct ChunkOut {
    /// The output, in order.
    pub pieces: Vec<Piece>,
    /// Converted bytes that [`Piece::Output`] ranges point into.
    pub out: Vec<u8>,
    /// Errors and warnings, in line order.
    pub issues: Vec<LineIssue>,
    /// Counters.
    pub stats: Stats,
    /// True if `--on-error fail` stopped the chunk at an error (the last issue).
    pub failed: bool,
}

impl ChunkOut {
    /// Empties it for reuse, keeping the allocations.
    pub fn clear(&mut self) {
        self.pieces.clear();
        self.out.clear();
        self.issues.clear();
        self.stats = Stats::default();
        self.failed = false;
    }

    /// Writes the output of the chunk whose input was `data`, with vectored writes: clean
    /// runs go from the input (a memory map, say) to the writer without being copied here.
    pub fn write_to<W: Write + ?Sized>(&self, data: &[u8], w: &mut W) -> io::Result<()> {
        const MAX_SLICES: usize = 1024; // IOV_MAX on Linux
        let mut slices: Vec<io::IoSlice<'_>> =
            Vec::with_capacity(self.pieces.len().min(MAX_SLICES));
        for group in self.pieces.chunks(MAX_SLICES) {
            slices.clear();
            slices.extend(group.iter().map(|p| match p {
                Piece::Input(r) => io::IoSlice::new(&data[r.clone()]),
                Piece::Output(r) => io::IoSlice::new(&self.out[r.clone()]),
            }));
            write_all_vectored(w, &mut slices)?;
        }
        Ok(())
    }

    /// The output as one vector (tests, convenience).
    pub fn render(&self, data: &[u8]) -> Vec<u8> {
        let mut v = Vec::new();
        self.write_to(data, &mut v).expect("writing to a Vec");
        v
    }
}

/// `Write::write_all_vectored` (unstable in std): writes every slice, resuming after partial
/// writes.
pub fn write_all_vectored<W: Write + ?Sized>(
    w: &mut W,
    mut bufs: &mut [io::IoSlice<'_>],
) -> io::Result<()> {
    io::IoSlice::advance_slices(&mut bufs, 0);
    while !bufs.is_empty() {
        match w.write_vectored(bufs) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => io::IoSlice::advance_slices(&mut bufs, n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
