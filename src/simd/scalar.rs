//! Portable block classifier: one 256-entry table lookup per byte, with the
//! per-byte class bits packed into the three masks eight bytes at a time
//! (SWAR bit gathering with a multiply).
//!
//! Always compiled: it is the implementation on non-x86 targets, the twin the
//! SIMD versions are tested against, and the fallback of the SSE2 version for
//! sets too scattered for its compare list.

use super::{BlockMasks, ByteSet};

/// Class bit of LF (0x0A) in a [`Table`] entry.
const LF_BIT: u8 = 1;
/// Class bit of CR (0x0D) in a [`Table`] entry.
const CR_BIT: u8 = 2;
/// Class bit of a flagged byte (a member of the set other than LF and CR).
const FLAG_BIT: u8 = 4;

/// Per-byte class bits (`LF_BIT`, `CR_BIT`, `FLAG_BIT`) for one [`ByteSet`].
#[derive(Clone, Debug)]
pub(crate) struct Table([u8; 256]);

impl Table {
    /// Builds the table of `set`; LF and CR only ever get their own bit.
    pub(crate) fn new(set: &ByteSet) -> Table {
        let mut t = [0u8; 256];
        for (b, class) in (0u8..=255).zip(t.iter_mut()) {
            *class = match b {
                b'\n' => LF_BIT,
                b'\r' => CR_BIT,
                _ if set.contains(b) => FLAG_BIT,
                _ => 0,
            };
        }
        Table(t)
    }
}

/// Packs bit 0 of each of the 8 bytes of `c` into an 8-bit value (byte k ->
/// bit k). The multiplier places bit 0 of byte k at bit 56 + k without
/// overlapping any other partial product, so no carries disturb the result.
#[inline(always)]
fn gather_lsbs(c: u64) -> u64 {
    (c & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Classifies one full 64-byte block.
#[inline]
pub(crate) fn classify64(table: &Table, block: &[u8; 64]) -> BlockMasks {
    let mut m = BlockMasks::default();
    for (i, chunk) in block.chunks_exact(8).enumerate() {
        let mut c = 0u64;
        for (k, &b) in chunk.iter().enumerate() {
            c |= u64::from(table.0[usize::from(b)]) << (8 * k);
        }
        let shift = 8 * i;
        let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        m.high |= gather_lsbs(word >> 7) << shift;
        m.lf |= gather_lsbs(c) << shift;
        m.cr |= gather_lsbs(c >> 1) << shift;
        m.flag |= gather_lsbs(c >> 2) << shift;
    }
    m
}

/// Appends the masks of every 64-byte block of `buf` to `out` (the last block
/// may be partial).
pub(crate) fn scan_into(table: &Table, buf: &[u8], out: &mut Vec<BlockMasks>) {
    out.reserve(buf.len().div_ceil(64));
    let mut blocks = buf.chunks_exact(64);
    for block in blocks.by_ref() {
        if let Ok(block) = <&[u8; 64]>::try_from(block) {
            out.push(classify64(table, block));
        }
    }
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let (block, keep) = super::pad(tail);
        out.push(classify64(table, &block).keep(keep));
    }
}
