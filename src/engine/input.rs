//! Opening the input: memory-mapped regular files, or a stream (stdin, pipes, `.gz`, `.zst`),
//! and cutting it into chunks of whole lines.

use memmap2::Mmap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Compression of a stream, from the file name or the first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain bytes.
    None,
    /// gzip (RFC 1952), magic `1f 8b`; concatenated members are read as one stream, and NUL
    /// bytes after the last one are ignored (as gzip 1.x does).
    Gzip,
    /// Zstandard, magic `28 b5 2f fd`, or a skippable frame's `5? 2a 4d 18` (RFC 8878 §3.1.2).
    Zstd,
}

impl Compression {
    /// From a file name's extension.
    pub fn from_path(p: &Path) -> Compression {
        match p.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("gz") => Compression::Gzip,
            Some(e) if e.eq_ignore_ascii_case("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }

    /// The error of a build without the `compression` feature, for a compressed file.
    #[cfg(not(feature = "compression"))]
    pub(crate) fn unsupported(self) -> io::Error {
        io::Error::new(
            io::ErrorKind::Unsupported,
            format!("{self:?} data: iribulk was built without the 'compression' feature"),
        )
    }

    /// From the first bytes of the data.
    pub fn from_magic(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd])
            || (head.len() >= 4 && head[0] & 0xf0 == 0x50 && head[1..4] == [0x2a, 0x4d, 0x18])
        {
            // RFC 8878 §3.1.2: a stream may start with a skippable frame, magic
            // 0x184D2A50..=0x184D2A5F little-endian (what `pzstd` writes first).
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

/// The compressions iribulk does not read, by their magic bytes: a file in one of them is an
/// error, not text (found by a QA sweep: an `.xz` file was read as 10,125 "lines" of binary,
/// exit 0 with `--on-error skip`). `head` is the first [`HEAD`] bytes or fewer. The magics:
/// xz `fd 37 7a 58 5a 00` (xz file format §2.1.1.1), bzip2 `BZh1`–`BZh9` followed by the block
/// magic `31 41 59 26 53 59` (so that a text line starting `BZh1` is still text), LZ4 frame
/// `04 22 4d 18` (LZ4 frame format §Frame Descriptor) and legacy frame `02 21 4c 18`, 7z `37 7a bc af 27 1c`, zip `50 4b 03
/// 04`.
pub fn unsupported_compression(head: &[u8]) -> Option<(&'static str, &'static str)> {
    if head.starts_with(&[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) {
        Some(("xz", "xz -dc"))
    } else if head.len() >= 10
        && head.starts_with(b"BZh")
        && (b'1'..=b'9').contains(&head[3])
        && head[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
    {
        Some(("bzip2", "bzip2 -dc"))
    } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18])
        || head.starts_with(&[0x02, 0x21, 0x4c, 0x18])
    {
        Some(("LZ4", "lz4 -dc"))
    } else if head.starts_with(&[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) {
        Some(("7z", "7z x -so"))
    } else if head.starts_with(&[0x50, 0x4b, 0x03, 0x04]) {
        Some(("zip", "unzip -p"))
    } else {
        None
    }
}

/// Refuses a regular file whose first bytes are a compression iribulk does not read
/// ([`unsupported_compression`]), before any input is converted: a second input in xz was
/// found only after the first one's output had been written to stdout (found by a QA sweep).
/// Other files (pipes, devices) are not read here: their bytes would be lost.
pub fn check_compression(path: &Path) -> io::Result<()> {
    if fd_number(path).is_some() || !std::fs::metadata(path)?.is_file() {
        return Ok(());
    }
    let mut head = [0u8; HEAD];
    let n = read_up_to(&mut File::open(path)?, &mut head)?;
    refuse_compression(&head[..n])
}

/// How many first bytes are read to recognise a compression ([`Compression::from_magic`],
/// [`unsupported_compression`]).
const HEAD: usize = 10;

/// The error for data in a compression iribulk does not read ([`unsupported_compression`]).
fn refuse_compression(head: &[u8]) -> io::Result<()> {
    match unsupported_compression(head) {
        Some((name, tool)) => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{name}-compressed data: iribulk reads gzip and zstd only; decompress it first \
                 ({tool} FILE | iribulk ...)"
            ),
        )),
        None => Ok(()),
    }
}

/// An opened input.
pub enum Source {
    /// A memory-mapped regular file (or an empty one).
    Mapped(MappedFile),
    /// A stream read sequentially.
    Stream(Box<dyn Read + Send>),
}

/// A memory-mapped file; empty files are not mapped.
pub struct MappedFile {
    /// The map's SIGBUS registration ([`super::sigbus`]), for a file mapped from a path;
    /// dropped before the map.
    _sigbus: Option<super::sigbus::Registered>,
    map: Option<Mmap>,
}

impl MappedFile {
    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        self.map.as_deref().unwrap_or(&[])
    }

    /// A copy of `data` in an anonymous read-only map: a mapped input without a file, for
    /// tests and the fuzz target `pipeline` (the pipeline's mapped path). Empty data is not
    /// mapped, as an empty file is not.
    #[doc(hidden)]
    pub fn from_bytes(data: &[u8]) -> io::Result<MappedFile> {
        if data.is_empty() {
            return Ok(MappedFile {
                _sigbus: None,
                map: None,
            });
        }
        let mut m = memmap2::MmapMut::map_anon(data.len())?;
        m.copy_from_slice(data);
        Ok(MappedFile {
            _sigbus: None,
            map: Some(m.make_read_only()?),
        })
    }
}

/// Opens `path` (`None` or `-`: stdin). Regular uncompressed files are mapped unless
/// `no_mmap`; everything else is streamed, decompressed by extension or magic bytes.
/// Returns the source and the input size when known (for the progress bar).
///
/// **The map's contract is the caller's choice** (as in ripgrep): with `no_mmap == false` a
/// regular file is memory-mapped, and while the returned [`Source`] lives the file must not
/// be truncated or rewritten by anyone — a truncation makes a read of the lost pages raise
/// SIGBUS (which the command turns into a message and status 1, [`super::sigbus`]), a rewrite
/// changes bytes under the converter. Pass `no_mmap = true` (the CLI's
/// `--no-mmap`) for a file that may change or grow while it is read: it is then streamed.
///
/// The path is opened once and never reopened: the magic bytes are peeked from the same
/// reader that is then streamed, so a pipe given by path (`--in <(zcat x.gz)`, `/dev/stdin`,
/// a named FIFO) loses nothing. `/dev/stdin`, `/dev/fd/N` and `/proc/self/fd/N` name a
/// descriptor this process already holds: it is duplicated instead of opened, which works
/// for sockets (that cannot be opened by path) and for a pipe whose writer has already
/// exited (opening such a pipe by path would wait for a new writer forever).
pub fn open(path: Option<&Path>, no_mmap: bool) -> io::Result<(Source, Option<u64>)> {
    open_counted(path, no_mmap, &Arc::new(AtomicU64::new(0)))
}

/// [`open`], and a stream adds the bytes it reads from the file or pipe (compressed bytes for
/// `.gz`/`.zst`, before decompression) to `read`: the progress of a stream against the file
/// size, or its rate when the size is unknown. A mapped file leaves `read` alone.
pub fn open_counted(
    path: Option<&Path>,
    no_mmap: bool,
    read: &Arc<AtomicU64>,
) -> io::Result<(Source, Option<u64>)> {
    let counted = |r: Box<dyn Read + Send>| -> Box<dyn Read + Send> {
        Box::new(Counting {
            inner: r,
            read: Arc::clone(read),
        })
    };
    let path = path.filter(|p| p.as_os_str() != "-");
    let Some(path) = path else {
        // stdin redirected from a regular file (`iribulk < f`) is a regular file streamed:
        // it must give the bytes it had from where it stands ([`ExpectLen`]). It was read to
        // whatever end a truncation left, the last line cut and the run a success, where
        // `--in f` and `--in /dev/stdin < f` stop with status 1 (found by a QA sweep). The
        // descriptor is duplicated (it shares the shell's offset, as `io::stdin` reads it).
        if let Some(rest) = stdin_file()? {
            return Ok((stream(counted(Box::new(rest)), Compression::None)?, None));
        }
        return Ok((
            stream(counted(Box::new(io::stdin())), Compression::None)?,
            None,
        ));
    };
    let f = match inherited_fd(path) {
        Some(f) => f?,
        None => File::open(path)?,
    };
    let meta = f.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "is a directory",
        ));
    }
    let by_name = Compression::from_path(path);
    let size = meta.is_file().then_some(meta.len());
    if meta.is_file() && !no_mmap {
        // A descriptor held before (`/dev/stdin`, `/dev/fd/N`) may have been read from: the
        // input starts where it stands, as for `-` (the map started at byte 0, found by a QA
        // sweep). Files opened here stand at 0.
        let at = (&f).stream_position()?;
        let mut head = [0u8; HEAD];
        let nhead = read_up_to(&mut &f, &mut head)?;
        refuse_compression(&head[..nhead])?;
        let comp = Compression::from_magic(&head[..nhead]);
        if at == 0 && comp == Compression::None && by_name == Compression::None {
            if nhead == 0 {
                return Ok((
                    Source::Mapped(MappedFile {
                        _sigbus: None,
                        map: None,
                    }),
                    size,
                ));
            }
            // A file of size 0 that has bytes (procfs, sysfs, some FUSE files) cannot be
            // mapped: it is read until its end like a pipe below (it was read as empty,
            // found by a QA sweep).
            if meta.len() > 0 {
                // SAFETY: the map is read-only and private to this process. Its contract is
                // that the file must not be truncated or changed while mapped; that is
                // documented for users (README: "do not modify the input while iribulk runs;
                // use --no-mmap for files that grow"). A concurrent truncation raises SIGBUS,
                // never reads uninitialized memory; the command catches it for this map
                // (`sigbus::register`: a message, temporary outputs removed, status 1).
                // A file the kernel will not map (sysfs: "No such device") is streamed below
                // (it was status 1, found by a QA sweep).
                if let Ok(map) = unsafe { Mmap::map(&f) } {
                    #[cfg(unix)]
                    {
                        let _ = map.advise(memmap2::Advice::Sequential);
                    }
                    // The whole file is read: its descriptor is left at the end, as a stream
                    // leaves it. A held one (`/dev/stdin`) shares its offset with the shell's, so
                    // a later `-` or the next command of `{ …; } < f` read on from there (it stood
                    // after the magic bytes: `/dev/stdin -` wrote the file again from byte 10,
                    // found by a QA sweep).
                    (&f).seek(io::SeekFrom::End(0))?;
                    let sigbus = Some(super::sigbus::register(&map, path));
                    return Ok((
                        Source::Mapped(MappedFile {
                            _sigbus: sigbus,
                            map: Some(map),
                        }),
                        size,
                    ));
                }
            }
        }
        // Streamed from where it stood: the bytes read to look are put back in front.
        let head = io::Cursor::new(head[..nhead].to_vec());
        let rest = ExpectLen::from(f, meta.len(), at + nhead as u64);
        return Ok((stream(counted(Box::new(head.chain(rest))), by_name)?, size));
    }
    if meta.is_file() {
        let at = (&f).stream_position()?;
        let rest = ExpectLen::from(f, meta.len(), at);
        return Ok((stream(counted(Box::new(rest)), by_name)?, size));
    }
    Ok((stream(counted(Box::new(f)), by_name)?, size))
}

/// stdin as an [`ExpectLen`] when it is a regular file, from where its offset stands; `None`
/// for a pipe, a terminal, a socket (read through `io::stdin` as before).
fn stdin_file() -> io::Result<Option<ExpectLen>> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() else {
            // No descriptor 0 (closed by the caller): `io::stdin` reads it as empty.
            return Ok(None);
        };
        let f = File::from(fd);
        let meta = f.metadata()?;
        if !meta.is_file() {
            return Ok(None);
        }
        let at = (&f).stream_position()?;
        Ok(Some(ExpectLen::from(f, meta.len(), at)))
    }
    #[cfg(not(unix))]
    {
        Ok(None)
    }
}

/// A regular file streamed (`--no-mmap`, compressed, or with a UTF-16 mark) that must give
/// the bytes its size promised when it was opened: an end of file before them means another
/// process truncated it under the run, an error naming the input (status 1), as a mapped
/// file's SIGBUS is ([`super::sigbus`]). It was read as the input's end, the last line cut
/// and the run a success (found by a QA sweep). A file that grows is read to its new end.
struct ExpectLen {
    f: File,
    want: u64,
    got: u64,
    /// The bytes of the file before this reader's first (its offset when opened, and the
    /// magic bytes read to look): the message counts from the file's start (it said 10
    /// bytes less than the file had for a `.gz`, found by a QA sweep).
    before: u64,
}

impl ExpectLen {
    /// The rest of `f`, a file of `len` bytes when opened, read from byte `before` on.
    fn from(f: File, len: u64, before: u64) -> ExpectLen {
        ExpectLen {
            want: len.saturating_sub(before),
            got: 0,
            before,
            f,
        }
    }
}

impl Read for ExpectLen {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.f.read(buf)?;
        self.got += n as u64;
        // A file whose size is still what it was is not truncated: a pseudo-file whose size
        // is not its content (sysfs says 4096 for a line of text; `iribulk < /sys/…` was
        // status 1 once stdin was held to its size, found by a QA sweep) ends here.
        let shrunk = || {
            self.f
                .metadata()
                .map_or(true, |m| m.len() < self.before + self.want)
        };
        if n == 0 && !buf.is_empty() && self.got < self.want && shrunk() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the file was truncated while iribulk read it: it ended after {} of the {} \
                     bytes it had when opened",
                    self.before + self.got,
                    self.before + self.want
                ),
            ));
        }
        Ok(n)
    }
}

/// A reader that adds the bytes it reads to a shared counter.
struct Counting {
    inner: Box<dyn Read + Send>,
    read: Arc<AtomicU64>,
}

impl Read for Counting {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// True when `path` names stdout as an output: `-`, or `/dev/stdout`, `/dev/fd/1`,
/// `/proc/self/fd/1` ([`fd_number`]).
pub fn names_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || fd_number(path) == Some(1)
}

/// The descriptor number that `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
/// `/proc/self/fd/N` names; `None` for any other path.
pub(crate) fn fd_number(path: &Path) -> Option<i32> {
    let s = path.to_str()?;
    match s {
        "/dev/stdin" => Some(0),
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        _ => s
            .strip_prefix("/dev/fd/")
            .or_else(|| s.strip_prefix("/proc/self/fd/"))?
            .parse()
            .ok(),
    }
}

/// True when `path` names a descriptor this process holds ([`fd_number`]) that is open for
/// reading only (`--errors /dev/stdin < f`, `3<f ... --errors /dev/fd/3`): an output there
/// cannot be written, which the CLI says before any input is read (status 2, as for a side
/// file that cannot be created). It said "Bad file descriptor" at the first write, status 1
/// (found by a QA sweep). Linux only (`/proc/self/fdinfo`); false elsewhere and for any other
/// path.
pub fn names_read_only_descriptor(path: &Path) -> bool {
    fd_number(path).is_some_and(descriptor_read_only)
}

/// True when descriptor `n` of this process is open for reading only (`1< f`, a pipe's read
/// end as stdout). Rust's standard streams take a write's "Bad file descriptor" for success
/// (as for a closed descriptor), so the output sent there vanished with status 0 (found by a
/// QA sweep); the CLI refuses such a stdout or stderr before any input is read. Linux only
/// (`/proc/self/fdinfo`); false elsewhere, and for a descriptor that is not open.
pub fn descriptor_read_only(n: i32) -> bool {
    descriptor_access_mode(n) == Some(0)
}

/// The access mode (`O_RDONLY` 0, `O_WRONLY` 1, `O_RDWR` 2) descriptor `n` of this process
/// was opened with, from `/proc/self/fdinfo/N`; `None` where that cannot be read (not
/// Linux, or the descriptor is not open).
pub fn descriptor_access_mode(n: i32) -> Option<u32> {
    let info = std::fs::read_to_string(format!("/proc/self/fdinfo/{n}")).ok()?;
    // `flags:\t0100002`: octal open flags; the access mode is the low two bits.
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .map(|f| f & 3)
}

/// The descriptor named by `/dev/stdin`, `/dev/stdout`, `/dev/stderr`, `/dev/fd/N` or
/// `/proc/self/fd/N` ([`fd_number`]), duplicated; `None` for any other path. Outputs use it
/// too: writing to `/dev/stdout` goes to the descriptor as the shell set it up (appending
/// for `>>`).
#[cfg(unix)]
pub(crate) fn inherited_fd(path: &Path) -> Option<io::Result<File>> {
    use std::os::fd::{AsFd, BorrowedFd};
    let n = fd_number(path)?;
    let dup = match n {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        1 => io::stdout().as_fd().try_clone_to_owned(),
        2 => io::stderr().as_fd().try_clone_to_owned(),
        n if n < 0 => return None,
        n => {
            // The path exists only if the descriptor is open in this process.
            if let Err(e) = std::fs::symlink_metadata(path) {
                return Some(Err(e));
            }
            // SAFETY: `n` is a descriptor open in this process (its /dev/fd entry exists,
            // checked just above), and no thread closes inherited descriptors; it is borrowed
            // only for the time of the duplication, which owns a new descriptor.
            unsafe { BorrowedFd::borrow_raw(n) }.try_clone_to_owned()
        }
    };
    Some(dup.map(File::from))
}

#[cfg(not(unix))]
pub(crate) fn inherited_fd(_path: &Path) -> Option<io::Result<File>> {
    None
}

/// A stream of `r`: its first bytes are read (until [`HEAD`] or the end) to recognise gzip or
/// zstd (or a compression iribulk does not read: an error), then put back in front of the rest, so nothing is lost and nothing is read twice.
/// `by_name` is the compression that the file name says, used when the magic says none.
fn stream(r: Box<dyn Read + Send>, by_name: Compression) -> io::Result<Source> {
    let (head, joined) = peek::<HEAD>(r)?;
    refuse_compression(&head)?;
    let mut comp = Compression::from_magic(&head);
    if comp == Compression::None {
        comp = by_name;
    }
    let br = BufReader::with_capacity(1 << 20, joined);
    Ok(Source::Stream(decompress(Box::new(br), comp)?))
}

fn read_up_to<R: Read + ?Sized>(f: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The largest zstd window read, as a power of two: 2 GiB (`zstd --long=31`, the format's
/// limit for 64-bit decoders, RFC 8878 §3.1.1.1.2 allows up to 2^41 but zstd caps at 2^31).
#[cfg(feature = "compression")]
const ZSTD_WINDOW_LOG_MAX: u32 = 31;

fn decompress(r: Box<dyn BufRead + Send>, comp: Compression) -> io::Result<Box<dyn Read + Send>> {
    Ok(match comp {
        Compression::None => r,
        #[cfg(feature = "compression")]
        Compression::Gzip => Box::new(GzMembers {
            dec: Some(flate2::bufread::GzDecoder::new(r)),
            member: 1,
        }),
        #[cfg(feature = "compression")]
        Compression::Zstd => {
            let mut d = zstd::stream::read::Decoder::with_buffer(r)?;
            // Frames written with `zstd --long=31` (big shards) declare windows up to 2 GiB;
            // the library's default limit (128 MiB, what `zstd -d` takes without `--long`)
            // made them a fatal "Frame requires too much memory for decoding" (a QA sweep).
            // The memory is what the frame declares, as for `zstd -d --long=31`.
            d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            Box::new(d)
        }
        #[cfg(not(feature = "compression"))]
        Compression::Gzip | Compression::Zstd => return Err(comp.unsupported()),
    })
}

/// gzip members read one after the other as one stream (RFC 1952 §2.2: "a gzip file consists
/// of a series of members"), and NUL bytes after the last member ignored, as gzip 1.x does
/// for a file padded by tape or block devices (flate2's `MultiGzDecoder` read that padding as
/// a broken header: "unexpected end of file", found by a QA sweep). Data after the padding is
/// an error, and so is data after a member that does not start another (no `1F 8B`, RFC 1952
/// §2.3.1: gzip 1.x warns "trailing garbage ignored"; flate2 said "invalid gzip header" or
/// "unexpected end of file", found by a QA sweep). Each error names the member.
#[cfg(feature = "compression")]
struct GzMembers {
    dec: Option<flate2::bufread::GzDecoder<Box<dyn BufRead + Send>>>,
    /// The member being read, counted from 1.
    member: u64,
}

#[cfg(feature = "compression")]
impl Read for GzMembers {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(d) = self.dec.as_mut() else {
                return Ok(0);
            };
            let member = self.member;
            let n = d.read(buf).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("gzip member {member} is corrupt or truncated: {e}"),
                )
            })?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The member ended (its trailer checked): the end, padding, or the next member.
            let mut r = self.dec.take().expect("a decoder").into_inner();
            let mut padded = false;
            loop {
                let rest = r.fill_buf()?;
                if rest.is_empty() {
                    return Ok(0);
                }
                let zeros = rest.iter().take_while(|&&b| b == 0).count();
                if zeros == 0 {
                    break;
                }
                padded = true;
                r.consume(zeros);
            }
            if padded {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "data after the NUL bytes that pad the end of the gzip data",
                ));
            }
            // Another member starts with the magic `1F 8B` (where the buffer holds one byte
            // only, its first: the decoder reads the header).
            let magic = match r.fill_buf()? {
                [a, b, ..] => [*a, *b] == [0x1F, 0x8B],
                [a] => *a == 0x1F,
                [] => false,
            };
            if !magic {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "data after the end of gzip member {member} is not gzip (trailing \
                         garbage; gzip -d ignores it with a warning: zcat the file into iribulk)"
                    ),
                ));
            }
            self.member += 1;
            self.dec = Some(flate2::bufread::GzDecoder::new(r));
        }
    }
}

/// Where the next chunk of a mapped input ends: at the last LF within `chunk` bytes of `pos`,
/// or, if that window has none, at the first LF after it (or the end).
pub fn next_mapped_chunk_end(data: &[u8], pos: usize, chunk: usize) -> usize {
    let n = data.len();
    let lim = pos.saturating_add(chunk.max(1)).min(n);
    if lim == n {
        return n;
    }
    match memchr::memrchr(b'\n', &data[pos..lim]) {
        Some(p) => pos + p + 1,
        None => memchr::memchr(b'\n', &data[lim..]).map_or(n, |p| lim + p + 1),
    }
}

/// What a streamed chunk holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamChunk {
    /// Whole lines (the last one lacks its LF only at the end of the input).
    Lines,
    /// A piece of one line longer than the line cap: `first` is its first piece, `last` its
    /// last (which holds the terminator, if any). Such a line is never held whole in memory.
    LongLine {
        /// First piece of the line.
        first: bool,
        /// Last piece of the line.
        last: bool,
    },
}

/// The least a stream buffer grows by per read ([`StreamChunker`]).
const GROW_STEP: usize = 64 << 10;

/// The least a line over the cap is held whole before it is handed out in pieces: the
/// report's excerpt ([`crate::engine::report::INPUT_CUT`] bytes, README "The error report")
/// and two more (a CRLF), so that the report shows a streamed line as it shows a mapped one:
/// 512 bytes cut at a character boundary with `…` (it showed the first piece, `--max-line-bytes`
/// + 2 bytes, cut mid-character: found by a QA sweep).
const LONG_HEAD: usize = crate::engine::report::INPUT_CUT + 2;

/// Cuts a stream into chunks of whole lines with bounded memory: about `chunk` bytes, or one
/// line up to the cap, or pieces of a longer line.
pub struct StreamChunker {
    r: Box<dyn Read + Send>,
    carry: Vec<u8>,
    eof: bool,
    chunk: usize,
    max_line: usize,
    in_long: bool,
    started: bool,
    total_read: u64,
}

impl StreamChunker {
    /// A chunker of `r`; `max_line` is the line cap in bytes (without terminator).
    pub fn new(r: Box<dyn Read + Send>, chunk: usize, max_line: usize) -> Self {
        StreamChunker {
            r,
            carry: Vec::new(),
            eof: false,
            chunk: chunk.max(1),
            max_line,
            in_long: false,
            started: false,
            total_read: 0,
        }
    }

    /// Bytes read from the (decompressed) stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.total_read
    }

    /// Reads into `buf` until it holds `want` bytes or the stream ends. The buffer grows by
    /// at most what it holds (at least [`GROW_STEP`]) per read, not to `want` at once: a large
    /// `--chunk-size` on a small stream holds what the stream has, and a buffer that cannot
    /// be had is an error (`OutOfMemory`, naming the options), not an abort.
    fn fill(&mut self, buf: &mut Vec<u8>, want: usize) -> io::Result<()> {
        // `buf[..filled]` holds what was read; `buf` itself is only ever grown, so each byte
        // is zeroed once per call (a `resize` after each short read zeroed the whole grown
        // buffer again: with pipe reads of 64 KiB, `--chunk-size 64M` cost 1,024 memsets of
        // up to 64 MB per chunk; found after a QA sweep's UTF-16 finding).
        let mut filled = buf.len();
        while filled < want && !self.eof {
            let target = want
                .min(filled.saturating_add(filled.max(GROW_STEP)))
                .max(filled + 1);
            if buf.len() < target {
                if buf.try_reserve(target - buf.len()).is_err() {
                    buf.truncate(filled);
                    return Err(io::Error::new(
                        io::ErrorKind::OutOfMemory,
                        format!(
                            "no memory for a buffer of {target} bytes (lower --chunk-size or \
                             --max-line-bytes)"
                        ),
                    ));
                }
                buf.resize(target, 0);
            }
            match self.r.read(&mut buf[filled..target]) {
                Ok(0) => self.eof = true,
                Ok(k) => {
                    filled += k;
                    self.total_read += k as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    buf.truncate(filled);
                    return Err(e);
                }
            }
        }
        buf.truncate(filled);
        Ok(())
    }

    /// The lines read but not handed out yet (what the chunker holds after the last chunk, a
    /// last one without LF counted): after a `--on-error fail` stop they are read, not
    /// reached. (A long line's pieces hold nothing back: its line was counted with its first.)
    pub fn held_lines(&self) -> u64 {
        let c = &self.carry;
        memchr::memchr_iter(b'\n', c).count() as u64
            + u64::from(c.last().is_some_and(|&b| b != b'\n'))
    }

    /// The bytes of [`StreamChunker::held_lines`].
    pub fn held_bytes(&self) -> u64 {
        self.carry.len() as u64
    }

    /// Fills `buf` with the next chunk. `Ok(None)` at the end. A UTF-8 BOM at the very start
    /// is dropped.
    pub fn next_chunk(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<StreamChunk>> {
        buf.clear();
        buf.append(&mut self.carry);
        if !self.started {
            self.fill(buf, 3)?;
            if buf.starts_with(b"\xEF\xBB\xBF") {
                buf.drain(..3);
            }
            self.started = true;
        }
        if self.in_long {
            self.fill(buf, self.chunk)?;
            if buf.is_empty() {
                self.in_long = false;
                return Ok(None);
            }
            return Ok(Some(match memchr::memchr(b'\n', buf) {
                Some(p) => {
                    self.carry.extend_from_slice(&buf[p + 1..]);
                    buf.truncate(p + 1);
                    self.in_long = false;
                    StreamChunk::LongLine {
                        first: false,
                        last: true,
                    }
                }
                None => {
                    let last = self.eof;
                    self.in_long = !last;
                    StreamChunk::LongLine { first: false, last }
                }
            }));
        }
        let mut searched = 0;
        let mut want = self.chunk;
        loop {
            self.fill(buf, want)?;
            if let Some(p) = memchr::memrchr(b'\n', &buf[searched..]) {
                let p = searched + p;
                self.carry.extend_from_slice(&buf[p + 1..]);
                buf.truncate(p + 1);
                return Ok(Some(StreamChunk::Lines));
            }
            if self.eof {
                return Ok(if buf.is_empty() {
                    None
                } else {
                    Some(StreamChunk::Lines)
                });
            }
            searched = buf.len();
            // One line without LF so far. Past the cap (+2 for a CRLF), it is too long:
            // hand it out in pieces instead of holding it; its first piece holds at least
            // [`LONG_HEAD`] bytes, what the report shows of it.
            let long_at = self.max_line.saturating_add(2).max(LONG_HEAD);
            if buf.len() >= long_at {
                self.in_long = true;
                return Ok(Some(StreamChunk::LongLine {
                    first: true,
                    last: false,
                }));
            }
            want = buf.len().saturating_add(self.chunk).min(long_at);
        }
    }
}

/// Whether `src` starts with a UTF-8 BOM, and the source to read instead (a stream's first
/// bytes, read to look, are put back in front of it). The WHATWG Encoding Standard's decode
/// (§6) sniffs the BOM before it uses the declared encoding, so a BOM wins over a fixed
/// legacy `--charset` ([`crate::charset::LegacyInput::bom_decides`]).
pub fn sniff_utf8_bom(src: Source) -> io::Result<(Source, bool)> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    match src {
        Source::Mapped(m) => {
            let bom = m.bytes().starts_with(BOM);
            Ok((Source::Mapped(m), bom))
        }
        Source::Stream(r) => {
            let (head, r) = peek::<3>(r)?;
            Ok((Source::Stream(r), head == BOM))
        }
    }
}

/// Whether `src` starts with a UTF-16 byte order mark (`FF FE` or `FE FF`), and the source to
/// read it from: for WHATWG Encoding §6 "decode" (BOM sniffing), which reads such an input as
/// UTF-16 whatever the fallback encoding is; the run then reads it as with `--charset utf-16`
/// (found by a QA sweep: a file PowerShell wrote gave `invalid-utf8` on every line). A mapped
/// file with the mark becomes a stream over its map (the transcoder reads a stream); a stream
/// gets its first bytes back in front.
pub fn sniff_utf16_bom(src: Source) -> io::Result<(Source, bool)> {
    let is_bom = |h: &[u8]| h.starts_with(&[0xFF, 0xFE]) || h.starts_with(&[0xFE, 0xFF]);
    match src {
        Source::Mapped(m) => {
            if !is_bom(m.bytes()) {
                return Ok((Source::Mapped(m), false));
            }
            Ok((Source::Stream(Box::new(MapReader { map: m, pos: 0 })), true))
        }
        Source::Stream(r) => {
            let (head, r) = peek::<2>(r)?;
            Ok((Source::Stream(r), is_bom(&head)))
        }
    }
}

/// The first `N` bytes of `r` (fewer at its end), and a stream that gives them back in front
/// of the rest: nothing is lost and nothing is read twice ([`sniff_utf8_bom`],
/// [`sniff_utf16_bom`]).
fn peek<const N: usize>(
    mut r: Box<dyn Read + Send>,
) -> io::Result<(Vec<u8>, Box<dyn Read + Send>)> {
    let mut head = [0u8; N];
    let n = read_up_to(&mut r, &mut head)?;
    let head = head[..n].to_vec();
    Ok((head.clone(), Box::new(io::Cursor::new(head).chain(r))))
}

/// A mapped file read as a stream ([`sniff_utf16_bom`]).
struct MapReader {
    map: MappedFile,
    pos: usize,
}

impl Read for MapReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.map.bytes()[self.pos..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// Wraps an opened input in a [`crate::charset::Utf16Reader`] when the run's charset is UTF-16
/// (`cs`; RFC 3987 §3.1 step 1c: a Unicode-based encoding is read as such); a source of another
/// kind is returned as it is (the caller opens UTF-16 input as a stream, never mapped).
pub fn wrap_utf16(src: Source, cs: Option<crate::charset::Charset>) -> Source {
    match (src, cs) {
        (Source::Stream(r), Some(cs)) => {
            Source::Stream(Box::new(crate::charset::Utf16Reader::new(r, cs)))
        }
        (s, _) => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(data: &[u8], chunk: usize, max_line: usize) -> Vec<(Vec<u8>, StreamChunk)> {
        let mut c = StreamChunker::new(Box::new(io::Cursor::new(data.to_vec())), chunk, max_line);
        let mut v = Vec::new();
        let mut buf = Vec::new();
        while let Some(k) = c.next_chunk(&mut buf).unwrap() {
            v.push((buf.clone(), k));
        }
        v
    }

    /// A reader that hands out at most 3 bytes a read and an `Interrupted` every fourth.
    struct Trickle(io::Cursor<Vec<u8>>, u32);

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.1 += 1;
            if self.1.is_multiple_of(4) {
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            let n = buf.len().min(3);
            self.0.read(&mut buf[..n])
        }
    }

    /// Short reads (a pipe's) give the chunks of one big read: [`StreamChunker::fill`] keeps
    /// what each read brought and grows its buffer without zeroing it again.
    #[test]
    fn short_reads_give_the_same_chunks() {
        let data: Vec<u8> = (0..5000u32)
            .flat_map(|i| format!("http://ex.com/{}\n", "a".repeat((i % 97) as usize)).into_bytes())
            .collect();
        for (chunk, max_line) in [(1, 200), (64, 200), (4096, 200), (1 << 20, 200), (64, 50)] {
            let mut c = StreamChunker::new(
                Box::new(Trickle(io::Cursor::new(data.clone()), 0)),
                chunk,
                max_line,
            );
            let mut got = Vec::new();
            let mut buf = Vec::new();
            while let Some(k) = c.next_chunk(&mut buf).unwrap() {
                got.push((buf.clone(), k));
            }
            assert!(got == chunks(&data, chunk, max_line), "chunk {chunk}");
            assert_eq!(c.bytes_read(), data.len() as u64);
        }
    }

    #[test]
    fn stream_chunks_are_whole_lines_and_concatenate_back() {
        let data = b"a\nbb\r\nccc\n\ndddd";
        for chunk in 1..20 {
            let cs = chunks(data, chunk, 100);
            let joined: Vec<u8> = cs.iter().flat_map(|c| c.0.clone()).collect();
            assert_eq!(joined, data, "chunk {chunk}");
            for (i, (b, k)) in cs.iter().enumerate() {
                assert_eq!(*k, StreamChunk::Lines);
                if i + 1 < cs.len() {
                    assert_eq!(b.last(), Some(&b'\n'));
                }
            }
        }
    }

    #[test]
    fn bom_dropped_once() {
        let cs = chunks(b"\xEF\xBB\xBFa\n\xEF\xBB\xBFb\n", 4, 100);
        let joined: Vec<u8> = cs.iter().flat_map(|c| c.0.clone()).collect();
        assert_eq!(joined, b"a\n\xEF\xBB\xBFb\n");
    }

    #[test]
    fn long_lines_come_in_pieces() {
        let mut data = b"ok\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', 1000));
        data.extend_from_slice(b"\nnext\n");
        let cs = chunks(&data, 64, 100);
        let joined: Vec<u8> = cs.iter().flat_map(|c| c.0.clone()).collect();
        assert_eq!(joined, data);
        let longs: Vec<_> = cs
            .iter()
            .filter(|c| matches!(c.1, StreamChunk::LongLine { .. }))
            .collect();
        assert!(longs.len() > 2);
        assert_eq!(
            longs[0].1,
            StreamChunk::LongLine {
                first: true,
                last: false
            }
        );
        assert_eq!(
            longs.last().unwrap().1,
            StreamChunk::LongLine {
                first: false,
                last: true
            }
        );
        assert!(cs.iter().all(|c| c.0.len() <= LONG_HEAD + 64));
        assert_eq!(longs[0].0.len(), LONG_HEAD);
    }

    #[test]
    #[cfg(feature = "compression")]
    fn streams_count_the_bytes_read_before_decompression() {
        let dir = tempfile::tempdir().unwrap();
        let data: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("http://h{i}.example/\n").into_bytes())
            .collect();
        let z = dir.path().join("x.zst");
        std::fs::write(&z, zstd::encode_all(&data[..], 3).unwrap()).unwrap();
        let plain = dir.path().join("x.txt");
        std::fs::write(&plain, &data).unwrap();
        for (p, no_mmap) in [(&z, false), (&plain, true)] {
            let read = Arc::new(AtomicU64::new(0));
            let (src, size) = open_counted(Some(p), no_mmap, &read).unwrap();
            let file_len = std::fs::metadata(p).unwrap().len();
            assert_eq!(size, Some(file_len));
            let Source::Stream(mut r) = src else {
                panic!("{} is not streamed", p.display())
            };
            let mut out = Vec::new();
            r.read_to_end(&mut out).unwrap();
            assert_eq!(out, data);
            assert_eq!(read.load(Ordering::Relaxed), file_len, "{}", p.display());
        }
        // A mapped file is not counted (its progress comes from the chunks).
        let read = Arc::new(AtomicU64::new(0));
        let (src, _) = open_counted(Some(&plain), false, &read).unwrap();
        assert!(matches!(src, Source::Mapped(_)));
    }

    #[test]
    #[cfg(feature = "compression")]
    fn a_zstd_frame_with_a_long_window_is_read() {
        // A frame that declares a 256 MiB window (`zstd --long=28`): over the library's
        // default limit of 128 MiB, it was a fatal error (a QA sweep).
        let dir = tempfile::tempdir().unwrap();
        let data: Vec<u8> = (0..2_000u32)
            .flat_map(|i| format!("http://h{i}.example/\n").into_bytes())
            .collect();
        use std::io::Write as _;
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.long_distance_matching(true).unwrap();
        e.window_log(28).unwrap();
        e.write_all(&data).unwrap();
        let z = dir.path().join("long.zst");
        std::fs::write(&z, e.finish().unwrap()).unwrap();
        let plain = zstd::stream::read::Decoder::new(std::fs::File::open(&z).unwrap())
            .unwrap()
            .read_to_end(&mut Vec::new());
        assert!(
            plain.is_err(),
            "the frame needs more than the default window"
        );
        let read = Arc::new(AtomicU64::new(0));
        let (src, _) = open_counted(Some(&z), false, &read).unwrap();
        let Source::Stream(mut r) = src else {
            panic!("a .zst is streamed")
        };
        let mut out = Vec::new();
        r.read_to_end(&mut out).unwrap();
        assert_eq!(out, data);
    }

    #[test]
    fn mapped_chunk_ends() {
        let d = b"aa\nbb\ncccccc\nd";
        assert_eq!(next_mapped_chunk_end(d, 0, 4), 3);
        assert_eq!(next_mapped_chunk_end(d, 3, 2), 6);
        assert_eq!(next_mapped_chunk_end(d, 6, 2), 13);
        assert_eq!(next_mapped_chunk_end(d, 13, 2), 14);
    }
}
