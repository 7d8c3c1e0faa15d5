//! The output: stdout or a file written under a temporary name and renamed on success,
//! optionally compressed by extension (`.gz`, `.zst`).

use crate::input::Compression;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

enum Sink {
    Plain(BufWriter<Box<dyn Write + Send>>),
    Gzip(flate2::write::GzEncoder<BufWriter<Box<dyn Write + Send>>>),
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

impl Output {
    /// Opens `path` (`None` or `-`: stdout). A regular file (or a new one) is written to a
    /// temporary name beside it and renamed by [`Output::finish`], so a failed run never
    /// leaves a complete-looking file. Devices and pipes (e.g. `/dev/full`, a FIFO) are
    /// written directly.
    pub fn open(path: Option<&Path>) -> io::Result<Output> {
        let path = path.filter(|p| p.as_os_str() != "-");
        let (w, rename, comp): (Box<dyn Write + Send>, _, _) = match path {
            None => (Box::new(io::stdout()), None, Compression::None),
            Some(p) => {
                let comp = Compression::from_path(p);
                let special = fs::metadata(p).map(|m| !m.is_file()).unwrap_or(false);
                if special {
                    let f = fs::OpenOptions::new().write(true).open(p)?;
                    (Box::new(f), None, comp)
                } else {
                    let tmp = temp_name(p);
                    let f = File::create(&tmp)?;
                    (Box::new(f), Some((tmp, p.to_path_buf())), comp)
                }
            }
        };
        let bw = BufWriter::with_capacity(BUF, w);
        let sink = match comp {
            Compression::None => Sink::Plain(bw),
            Compression::Gzip => Sink::Gzip(flate2::write::GzEncoder::new(
                bw,
                flate2::Compression::default(),
            )),
            Compression::Zstd => Sink::Zstd(zstd::stream::write::Encoder::new(bw, 3)?),
        };
        Ok(Output { sink, rename })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match &mut self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w,
            Sink::Zstd(w) => w,
        }
    }

    /// Flushes, ends the compressed stream, and renames the temporary file to its name.
    pub fn finish(self) -> io::Result<()> {
        let mut bw = match self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w.finish()?,
            Sink::Zstd(w) => w.finish()?,
        };
        let r = bw.flush();
        if let Err(e) = r {
            if let Some((tmp, _)) = &self.rename {
                let _ = fs::remove_file(tmp);
            }
            return Err(e);
        }
        drop(bw);
        if let Some((tmp, fin)) = self.rename {
            if let Err(e) = fs::rename(&tmp, &fin) {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
        }
        Ok(())
    }

    /// Gives up: removes the temporary file, if any.
    pub fn abort(self) {
        let rename = self.rename;
        // Drop the writers first (their flush errors do not matter any more).
        match self.sink {
            Sink::Plain(w) => drop(w.into_parts()),
            Sink::Gzip(w) => drop(w),
            Sink::Zstd(w) => drop(w),
        }
        if let Some((tmp, _)) = rename {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// `dir/.name.iribulk-PID.tmp` beside `p`.
fn temp_name(p: &Path) -> PathBuf {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = format!(".{}.iribulk-{}.tmp", name, std::process::id());
    match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.join(tmp),
        _ => PathBuf::from(tmp),
    }
}
