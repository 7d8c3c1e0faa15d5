//! The output: stdout, stderr or a file written under a temporary name and renamed on success,
//! optionally compressed by extension (`.gz`, `.zst`).
//!
//! Nothing half-written ever carries a final name: a file is written to
//! `.NAME.iribulk-PID-RANDOM.tmp` beside its target, created exclusively (a file or a symbolic
//! link already there is never opened: a planted link would redirect the output), and renamed
//! at the end; a failed or interrupted run (SIGINT, SIGTERM,
//! SIGHUP, see [`install_signal_cleanup`]) removes the temporary file and leaves any previous
//! file of that name as it was. Writing over an existing file keeps its permission bits (and
//! its group where allowed); a symbolic link is written through to its target and stays a link.

use crate::engine::input::Compression;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

enum Sink {
    Plain(BufWriter<Box<dyn Write + Send>>),
    #[cfg(feature = "compression")]
    Gzip(flate2::write::GzEncoder<BufWriter<Box<dyn Write + Send>>>),
    #[cfg(feature = "compression")]
    Zstd(zstd::stream::write::Encoder<'static, BufWriter<Box<dyn Write + Send>>>),
}

/// An output being written.
pub struct Output {
    sink: Sink,
    /// (temporary path, final path) for regular files.
    rename: Option<(PathBuf, PathBuf)>,
}

/// Small enough that a chunk's vectored write (about a chunk of bytes) bypasses the copy.
const BUF: usize = 128 << 10;

/// Temporary files that exist right now; a signal removes them before the process exits.
/// Held while a temporary file is renamed, so that a signal never removes a file that has
/// just got its final name, nor exits between the rename and the bookkeeping.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Held by [`commit_pending`] while it renames the finished outputs into place (the report,
/// the summary file, the output), and by the signal cleanup before it looks at [`TEMPS`]: a
/// signal that comes during those renames waits for all of them, so a run never ends with a
/// new report beside an old output (found by a QA sweep: SIGTERM between two renames did),
/// and one that comes before them renames none. Only renames happen under it (they do not
/// block), never a write, which could wait on a pipe.
static COMMIT: Mutex<()> = Mutex::new(());

thread_local! {
    /// Outputs written and flushed whose rename waits for [`commit_pending`]
    /// ([`Output::finish_deferred`]): (temporary path, final path), in order. Their temporary
    /// files stay in [`TEMPS`] until renamed. Per thread: a run finishes and commits its
    /// outputs on one thread, and two runs of a library caller on two threads keep theirs
    /// apart.
    static PENDING: std::cell::RefCell<Vec<(PathBuf, PathBuf)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn take_pending() -> Vec<(PathBuf, PathBuf)> {
    PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// Renames every output [`Output::finish_deferred`] left pending on this thread, in the order they were
/// finished, all of them or, if a signal comes first, none (README "Shell habits", Signals).
/// On a failed rename the outputs not yet renamed are removed; the error names the file.
pub fn commit_pending() -> Result<(), (PathBuf, io::Error)> {
    let _commit = COMMIT.lock().unwrap_or_else(|e| e.into_inner());
    let list = take_pending();
    let mut temps = temps();
    let mut failed = None;
    for (tmp, fin) in list {
        if failed.is_none() {
            if let Err(e) = rename_into_place(&mut temps, &tmp, &fin) {
                failed = Some((fin, e));
            }
        } else {
            let _ = fs::remove_file(&tmp);
            forget_temp(&mut temps, &tmp);
        }
    }
    failed.map_or(Ok(()), Err)
}

/// Renames the temporary file `tmp` to `fin` (removed if that fails) and drops it from the
/// list of temporary files, which the caller holds ([`temps`]).
fn rename_into_place(list: &mut Vec<PathBuf>, tmp: &Path, fin: &Path) -> io::Result<()> {
    let r = fs::rename(tmp, fin);
    if r.is_err() {
        let _ = fs::remove_file(tmp);
    }
    forget_temp(list, tmp);
    r
}

/// Removes the outputs [`Output::finish_deferred`] left pending (a run that fails after
/// finishing some of its outputs).
pub fn abort_pending() {
    for (tmp, _) in take_pending() {
        remove_temp(&tmp);
    }
}

fn forget_temp(list: &mut Vec<PathBuf>, p: &Path) {
    list.retain(|q| q != p);
}

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary files of every open [`Output`] (the
/// converted output and the error report), leave previous files of those names untouched,
/// and exit with status 128 + the signal number (130, 143, 129), as shells report a process
/// killed by that signal. Uses `signal-hook`'s iterator: the handler itself only records the
/// signal (async-signal-safe); the cleanup runs on an ordinary thread. (`signal-hook` rather
/// than `ctrlc`: it names the signal that came, which the exit status needs, and it covers
/// SIGHUP; rather than raw `libc`: no `unsafe` handler code of our own.)
#[cfg(all(unix, feature = "signals"))]
pub fn install_signal_cleanup() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("iribulk-signals".into())
        .spawn(move || {
            if let Some(sig) = signals.forever().next() {
                // After any renames under way (never released: the process exits).
                std::mem::forget(COMMIT.lock().unwrap_or_else(|e| e.into_inner()));
                let list = temps();
                for p in list.iter() {
                    let _ = fs::remove_file(p);
                }
                // Exit while holding the list: no rename can happen after the removal.
                std::process::exit(128 + sig);
            }
        })?;
    Ok(())
}

/// Creates and removes a file in `dir`, to learn before any input is read that an output can
/// be created there. The list of temporary files is held meanwhile, so a signal's cleanup
/// waits for the removal (a `.iribulk-probe-PID` was left behind; found by a QA sweep).
pub fn probe_dir(dir: &Path) -> io::Result<()> {
    let _list = temps();
    let (_f, path) = create_unique(dir, ".iribulk-probe")?;
    fs::remove_file(&path)
}

/// Creates `dir/STEM-PID-RANDOM.tmp` exclusively (`O_CREAT | O_EXCL`: a file, or a symbolic
/// link dangling or not, already at that name is never opened nor followed), trying fresh
/// random names while the name is taken. The name holds the process ID and 64 random bits, so
/// two runs with the same process ID (one per PID namespace) never share a file, and another
/// user cannot plant a link at the name in advance (a QA sweep had a planted link redirect
/// `--out` into another file, and two containers' runs mix their outputs).
fn create_unique(dir: &Path, stem: &str) -> io::Result<(File, PathBuf)> {
    use std::hash::{BuildHasher, Hasher};
    let mut last = None;
    for attempt in 0u32..64 {
        // `RandomState` is keyed from the operating system's random source once per process
        // and stepped for each new state; the attempt is hashed too.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(attempt);
        let name = format!("{stem}-{}-{:016x}.tmp", std::process::id(), h.finish());
        let path = if dir.as_os_str().is_empty() {
            PathBuf::from(name)
        } else {
            dir.join(name)
        };
        match File::options().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary name")))
}

/// Removes the temporary outputs from inside a signal handler (`sigbus`): no allocation, no
/// lock waited for. The list's lock is tried a bounded number of times; it is held only for
/// a moment while an output is created or renamed. Each path is copied with its NUL into a
/// stack buffer for `unlink` (a path longer than the buffer is left).
#[cfg(all(unix, feature = "signals"))]
pub(crate) fn remove_temps_in_handler() {
    use std::os::unix::ffi::OsStrExt;
    for _ in 0..100_000 {
        if let Ok(list) = TEMPS.try_lock() {
            for p in list.iter() {
                let b = p.as_os_str().as_bytes();
                let mut buf = [0u8; 4096];
                if b.len() < buf.len() && !b.contains(&0) {
                    buf[..b.len()].copy_from_slice(b);
                    // SAFETY: `buf` holds the path and a terminating NUL.
                    unsafe { libc::unlink(buf.as_ptr().cast()) };
                }
            }
            // The guard is not dropped: the process exits while holding it, so no rename can
            // follow the removal.
            std::mem::forget(list);
            return;
        }
        std::hint::spin_loop();
    }
}

/// Without Unix signals there is nothing to install.
#[cfg(all(not(unix), feature = "signals"))]
pub fn install_signal_cleanup() -> io::Result<()> {
    Ok(())
}

/// Output file names whose extension says a compression that iribulk does not write.
const UNSUPPORTED_COMPRESSION: &[&str] = &["bz2", "xz", "lzma", "lz4", "br"];

fn unsupported_compression(p: &Path) -> Option<&'static str> {
    let e = p.extension()?.to_str()?;
    UNSUPPORTED_COMPRESSION
        .iter()
        .find(|u| u.eq_ignore_ascii_case(e))
        .copied()
}

fn is_std(p: Option<&Path>) -> bool {
    p.is_none_or(|p| p.as_os_str() == "-")
}

/// What an output resolves to, for telling whether two outputs are the same.
#[derive(Debug, PartialEq, Eq)]
enum Ident {
    Stdout,
    Inode(u64, u64),
    Path(PathBuf),
    /// A character device such as `/dev/null`: shared freely.
    Device,
}

#[cfg(unix)]
fn ident(p: Option<&Path>) -> Ident {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Some(p) = p.filter(|p| p.as_os_str() != "-") else {
        return Ident::Stdout;
    };
    match fs::metadata(p) {
        Ok(m) => {
            if let Some((d, i)) = stdout_inode() {
                if (m.dev(), m.ino()) == (d, i) {
                    return Ident::Stdout;
                }
            }
            if m.file_type().is_char_device() {
                Ident::Device
            } else {
                Ident::Inode(m.dev(), m.ino())
            }
        }
        // Not there yet: the same directory and name is the same file. A dangling symbolic
        // link is the new file it points at (written through, see [`write_target`]): `--errors
        // L` with `L -> X` and `--out X` shared one temporary file (found by a QA sweep).
        Err(_) => {
            let p = write_target(p).unwrap_or_else(|_| p.to_path_buf());
            let dir = match p.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            Ident::Path(dir.join(p.file_name().unwrap_or_default()))
        }
    }
}

#[cfg(not(unix))]
fn ident(p: Option<&Path>) -> Ident {
    match p.filter(|p| p.as_os_str() != "-") {
        None => Ident::Stdout,
        Some(p) => Ident::Path(fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())),
    }
}

/// (device, inode) of this process's stdout, unless it is a terminal or other character
/// device (two outputs may share a terminal).
#[cfg(unix)]
fn stdout_inode() -> Option<(u64, u64)> {
    file_id(&std_file(1)?.metadata().ok()?)
}

/// A duplicate of this process's descriptor `fd` (0 stdin, 1 stdout, 2 stderr), for fstat
/// and the position; `None` where it cannot be had (and off Unix).
#[cfg(unix)]
fn std_file(fd: u8) -> Option<File> {
    use std::os::fd::AsFd;
    let owned = match fd {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        1 => io::stdout().as_fd().try_clone_to_owned(),
        _ => io::stderr().as_fd().try_clone_to_owned(),
    };
    owned.ok().map(File::from)
}

#[cfg(not(unix))]
fn std_file(_fd: u8) -> Option<File> {
    None
}

/// Checks the output options before any input is read: no output name with a compression
/// that is not written (`.bz2`, `.xz`, ...), and no two outputs that are the same file
/// (same device and inode, the same new path, or both stdout, `-` or absent meaning stdout).
/// Character devices such as `/dev/null` may be shared. Each item is (option name, path);
/// leave out options that are not given or that do not write to stdout when `-`. Returns a
/// usage message naming the options.
pub fn check_outputs(list: &[(&str, Option<&Path>)]) -> Result<(), String> {
    for (opt, p) in list {
        if let Some(p) = p {
            if let Some(ext) = unsupported_compression(p) {
                return Err(format!(
                    "{opt} '{}': .{ext} output is not supported (iribulk writes .gz and .zst; \
                     pipe into {} instead)",
                    p.display(),
                    match ext {
                        "xz" | "lzma" => "xz",
                        "lz4" => "lz4",
                        "br" => "brotli",
                        _ => "bzip2",
                    }
                ));
            }
        }
    }
    let ids: Vec<Ident> = list.iter().map(|(_, p)| ident(*p)).collect();
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            if ids[i] == ids[j] && ids[i] != Ident::Device {
                let show = |p: Option<&Path>| {
                    if is_std(p) {
                        "stdout".to_string()
                    } else {
                        format!("'{}'", p.unwrap_or(Path::new("")).display())
                    }
                };
                return Err(format!(
                    "{} {} and {} {} are the same file; give them different files",
                    list[i].0,
                    show(list[i].1),
                    list[j].0,
                    show(list[j].1)
                ));
            }
        }
    }
    Ok(())
}

/// Refuses a side file (`--errors`, `--stats-file`, `bench --plot`) that is one of the
/// `inputs` (the same device and inode): written like `--out`, to a temporary file renamed
/// at the end (or, for the chart, at once), it would replace that input. `--out` may name an input (converted in place: the
/// input is read whole before the rename). Each item is (option name, path), as for
/// [`check_outputs`]; `-` and absent paths are not files. An input `None` or `-` is stdin,
/// compared by the file its descriptor holds (`--errors in.txt < in.txt` replaced in.txt:
/// found by a QA sweep). Returns a usage message.
pub fn check_not_inputs(
    list: &[(&str, Option<&Path>)],
    inputs: &[Option<&Path>],
) -> Result<(), String> {
    let ids: Vec<(Option<(u64, u64)>, String)> = inputs
        .iter()
        .map(|i| match i.filter(|i| i.as_os_str() != "-") {
            Some(i) => (
                fs::metadata(i).ok().and_then(|m| file_id(&m)),
                format!("'{}'", i.display()),
            ),
            None => (stdin_id(), "stdin".to_string()),
        })
        .collect();
    for (opt, p) in list {
        let Some(p) = p.filter(|p| p.as_os_str() != "-") else {
            continue;
        };
        let Some(id) = fs::metadata(p).ok().and_then(|m| file_id(&m)) else {
            continue;
        };
        if let Some((_, inp)) = ids.iter().find(|(i, _)| *i == Some(id)) {
            return Err(format!(
                "{opt} '{}' is the input file {inp}: what {opt} writes would replace it; \
                 give another file",
                p.display(),
            ));
        }
    }
    Ok(())
}

/// Refuses an output that is written through a descriptor (not a temporary file renamed into
/// place) when that descriptor holds a regular file that is also an input with bytes left to
/// read, as `cat f >> f` refuses ("input file is output file"): what iribulk writes there
/// would be read back as input (found by QA sweeps: `iribulk < f >> f` turned 180,000 lines
/// into 423,504, and a whole file grew until the disk was full). Such outputs: an absent or
/// `-` path (stdout), a path naming a descriptor (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
/// `/proc/self/fd/N`), and stderr when the report goes there (`report_on_stderr`). `outs` are
/// (option name, path) as for [`check_outputs`], `None` or `-` meaning stdout. A path that is
/// not a descriptor is written to a temporary file and renamed: `--out f` over the input
/// converts it in place, and a side file naming an input is [`check_not_inputs`]'s. An empty
/// input (`iribulk --in f > f`, which the shell emptied first) is not refused, as `cat` does
/// not. Returns a usage message.
pub fn check_stdout_not_input(
    outs: &[(&str, Option<&Path>)],
    report_on_stderr: bool,
    inputs: &[Option<&Path>],
) -> Result<(), String> {
    let mut through: Vec<(String, (u64, u64))> = Vec::new();
    for (opt, p) in outs {
        let id = if is_std(*p) {
            std_file_id(1)
        } else {
            let p = p.expect("not stdout");
            if crate::engine::input::fd_number(p).is_some() || ident(Some(p)) == Ident::Stdout {
                fs::metadata(p)
                    .ok()
                    .filter(|m| m.is_file())
                    .and_then(|m| file_id(&m))
            } else {
                None
            }
        };
        if let Some(id) = id {
            let shown = match p.filter(|p| p.as_os_str() != "-") {
                Some(p) => format!("{opt} '{}'", p.display()),
                None => format!("{opt} (stdout)"),
            };
            through.push((shown, id));
        }
    }
    if report_on_stderr {
        if let Some(id) = std_file_id(2) {
            through.push(("--errors - (stderr)".to_string(), id));
        }
    }
    if through.is_empty() {
        return Ok(());
    }
    for i in inputs {
        let (iid, shown) = match i.filter(|i| i.as_os_str() != "-") {
            Some(p) => (
                fs::metadata(p)
                    .ok()
                    .filter(|m| m.len() > 0)
                    .and_then(|m| file_id(&m)),
                format!("'{}'", p.display()),
            ),
            None => (stdin_id_with_bytes_left(), "stdin".to_string()),
        };
        if let Some((name, _)) = through.iter().find(|(_, id)| Some(*id) == iid) {
            return Err(format!(
                "{name} is the input file {shown}: what iribulk writes there would be read \
                 back as input (as `cat f >> f` refuses); write to another file, or use \
                 --out with the input's name to convert it in place"
            ));
        }
    }
    Ok(())
}

/// [`stdin_id`] when stdin is a regular file with bytes after its current position.
fn stdin_id_with_bytes_left() -> Option<(u64, u64)> {
    use std::io::Seek;
    let mut f = std_file(0)?;
    let m = f.metadata().ok()?;
    let at = f.stream_position().ok()?;
    (m.is_file() && m.len() > at).then_some(())?;
    file_id(&m)
}

/// (device, inode) of the regular file that descriptor `fd` (1 or 2) holds, if it holds one.
fn std_file_id(fd: u8) -> Option<(u64, u64)> {
    let m = std_file(fd)?.metadata().ok()?;
    m.is_file().then_some(())?;
    file_id(&m)
}

/// (device, inode) of a file that a report could replace: anything but a character device
/// (`/dev/null` may be both read and written).
#[cfg(unix)]
fn file_id(m: &fs::Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    (!m.file_type().is_char_device()).then(|| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn file_id(_m: &fs::Metadata) -> Option<(u64, u64)> {
    None
}

/// [`file_id`] of what this process's stdin holds (fstat of descriptor 0).
fn stdin_id() -> Option<(u64, u64)> {
    file_id(&std_file(0)?.metadata().ok()?)
}

impl Output {
    /// Opens `path` (`None` or `-`: stdout). A regular file (or a new one) is written to a
    /// temporary name beside it (beside its target, for a symbolic link) and renamed by
    /// [`Output::finish`], so a failed run never leaves a complete-looking file. Devices and
    /// pipes (e.g. `/dev/full`, a FIFO) are written directly.
    pub fn open(path: Option<&Path>) -> io::Result<Output> {
        match path.filter(|p| p.as_os_str() != "-") {
            None => Self::new(Box::new(io::stdout()), None, Compression::None),
            Some(p) => Self::open_path(p),
        }
    }

    /// Writes to stderr (the error report's `-` when stdout carries the converted output).
    pub fn stderr() -> io::Result<Output> {
        Self::new(Box::new(io::stderr()), None, Compression::None)
    }

    fn open_path(p: &Path) -> io::Result<Output> {
        if let Some(ext) = unsupported_compression(p) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(".{ext} output is not supported"),
            ));
        }
        let comp = Compression::from_path(p);
        // `/dev/stdout`, `/dev/fd/N`: the descriptor this process holds, written directly
        // (renaming over the file behind it would undo a shell's `>>`).
        if let Some(f) = crate::engine::input::inherited_fd(p) {
            return Self::new(Box::new(f?), None, comp);
        }
        let target = write_target(p)?;
        let old = fs::metadata(&target).ok();
        if old.as_ref().is_some_and(|m| !m.is_file()) {
            let f = fs::OpenOptions::new().write(true).open(&target)?;
            return Self::new(Box::new(f), None, comp);
        }
        let (f, tmp) = {
            let mut list = temps();
            let (dir, stem) = temp_stem(&target);
            let (f, tmp) = create_unique(&dir, &stem)?;
            list.push(tmp.clone());
            (f, tmp)
        };
        if let Some(m) = &old {
            keep_owner_and_mode(&f, m);
        }
        let r = Self::new(Box::new(f), Some((tmp.clone(), target)), comp);
        if r.is_err() {
            remove_temp(&tmp);
        }
        r
    }

    fn new(
        w: Box<dyn Write + Send>,
        rename: Option<(PathBuf, PathBuf)>,
        comp: Compression,
    ) -> io::Result<Output> {
        let bw = BufWriter::with_capacity(BUF, w);
        let sink = match comp {
            Compression::None => Sink::Plain(bw),
            #[cfg(feature = "compression")]
            Compression::Gzip => Sink::Gzip(flate2::write::GzEncoder::new(
                bw,
                flate2::Compression::default(),
            )),
            #[cfg(feature = "compression")]
            Compression::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(bw, 3)?),
            #[cfg(not(feature = "compression"))]
            Compression::Gzip | Compression::Zstd => return Err(comp.unsupported()),
        };
        Ok(Output { sink, rename })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match &mut self.sink {
            Sink::Plain(w) => w,
            #[cfg(feature = "compression")]
            Sink::Gzip(w) => w,
            #[cfg(feature = "compression")]
            Sink::Zstd(w) => w,
        }
    }

    /// Flushes, ends the compressed stream, and renames the temporary file to its name.
    pub fn finish(self) -> io::Result<()> {
        match self.flush_all()? {
            Some((tmp, fin)) => rename_into_place(&mut temps(), &tmp, &fin),
            None => Ok(()),
        }
    }

    /// [`Output::finish`] but for the rename, which waits for [`commit_pending`] (or
    /// [`abort_pending`]): a run renames all its outputs at once.
    pub fn finish_deferred(self) -> io::Result<()> {
        if let Some(r) = self.flush_all()? {
            PENDING.with(|p| p.borrow_mut().push(r));
        }
        Ok(())
    }

    /// Flushes and ends the compressed stream: the (temporary, final) paths of a file, whose
    /// temporary file is removed on an error.
    #[cfg_attr(
        not(feature = "compression"),
        allow(clippy::redundant_closure_call, clippy::infallible_destructuring_match)
    )]
    fn flush_all(self) -> io::Result<Option<(PathBuf, PathBuf)>> {
        let rename = self.rename;
        let done = (|| {
            let mut bw = match self.sink {
                Sink::Plain(w) => w,
                #[cfg(feature = "compression")]
                Sink::Gzip(w) => w.finish()?,
                #[cfg(feature = "compression")]
                Sink::Zstd(w) => w.finish()?,
            };
            bw.flush()
        })();
        let Some((tmp, fin)) = rename else {
            return done.map(|()| None);
        };
        if let Err(e) = done {
            remove_temp(&tmp);
            return Err(e);
        }
        Ok(Some((tmp, fin)))
    }

    /// Gives up: removes the temporary file, if any.
    pub fn abort(self) {
        let rename = self.rename;
        // Drop the writers first (their flush errors do not matter any more).
        match self.sink {
            Sink::Plain(w) => drop(w.into_parts()),
            #[cfg(feature = "compression")]
            Sink::Gzip(w) => drop(w),
            #[cfg(feature = "compression")]
            Sink::Zstd(w) => drop(w),
        }
        if let Some((tmp, _)) = rename {
            remove_temp(&tmp);
        }
    }
}

fn remove_temp(tmp: &Path) {
    let mut list = temps();
    let _ = fs::remove_file(tmp);
    forget_temp(&mut list, tmp);
}

/// The file that writing to `p` replaces: `p`, or for a symbolic link its final target (a
/// dangling link's target is created). The link itself is never replaced.
fn write_target(p: &Path) -> io::Result<PathBuf> {
    let mut cur = p.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = fs::read_link(&cur)?;
                cur = match cur.parent() {
                    Some(d) if t.is_relative() => d.join(t),
                    _ => t,
                };
            }
            _ => return Ok(cur),
        }
    }
    Err(io::Error::other(format!(
        "too many levels of symbolic links: '{}'",
        p.display()
    )))
}

/// Gives the new file the permission bits and group of the file it replaces (the owner only
/// where the process may, i.e. as root; errors are ignored: the defaults stay).
#[cfg(unix)]
fn keep_owner_and_mode(f: &File, old: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    let _ = std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid()))
        .or_else(|_| std::os::unix::fs::fchown(f, None, Some(old.gid())));
    let _ = f.set_permissions(old.permissions());
}

#[cfg(not(unix))]
fn keep_owner_and_mode(f: &File, old: &fs::Metadata) {
    let _ = f.set_permissions(old.permissions());
}

/// The directory of `p` and the stem `.name.iribulk` of its temporary file
/// ([`create_unique`] adds `-PID-RANDOM.tmp`).
fn temp_stem(p: &Path) -> (PathBuf, String) {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let dir = p.parent().map(Path::to_path_buf).unwrap_or_default();
    (dir, format!(".{name}.iribulk"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_outputs_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let a = d.path().join("a.txt");
        let b = d.path().join("b.txt");
        assert!(check_outputs(&[("--out", Some(&a)), ("--errors", Some(&b))]).is_ok());
        let e = check_outputs(&[("--out", Some(&a)), ("--errors", Some(&a))]).unwrap_err();
        assert!(e.contains("--out") && e.contains("--errors"), "{e}");
        let e = check_outputs(&[("--out", None), ("--errors", Some(Path::new("-")))]).unwrap_err();
        assert!(e.contains("stdout"), "{e}");
        let null = Path::new("/dev/null");
        assert!(check_outputs(&[("--out", Some(null)), ("--errors", Some(null))]).is_ok());
        let e = check_outputs(&[("--out", Some(&d.path().join("x.bz2")))]).unwrap_err();
        assert!(e.contains(".bz2"), "{e}");
    }
}
