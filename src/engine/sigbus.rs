//! A mapped input that shrinks under the run: a clear message and status 1 instead of a crash.
//!
//! When a file that iribulk maps ([`super::input::open`]) is truncated by another process, the
//! kernel raises SIGBUS at the first read of a page past the file's new end. Left alone, the
//! process dies "Bus error" (status 135) with no word of which file, and the temporary outputs
//! beside `--out` and `--errors` stay on disk (found by a QA sweep). With the `signals`
//! feature, [`install`] puts a SIGBUS action in place that, for a fault inside a registered
//! map, writes one line naming the input, removes the temporary outputs (the previous `--out`
//! stays as it was, as for SIGINT) and exits with status 1, the status of a truncated input
//! (README "Exit status"). A SIGBUS anywhere else gets the default action.
//!
//! The action runs inside the signal handler, so it only reads atomics and records that are
//! never freed, and calls `write`, `unlink` and `_exit`, which POSIX lists as
//! async-signal-safe. A map registers a record ([`register`]); the record is leaked (some
//! hundred bytes per mapped input file) so that a handler running on another thread can never
//! read freed memory, and its slot is emptied when the map goes.

use std::path::Path;
use std::ptr;
use std::sync::atomic::{AtomicPtr, Ordering};

/// One mapped input: its address range and the line to write if it is cut under us (read by
/// the action that the `signals` feature installs).
#[cfg_attr(not(all(unix, feature = "signals")), allow(dead_code))]
struct Region {
    start: usize,
    end: usize,
    message: Box<[u8]>,
}

/// Maps alive at once that get the message; a further one (never seen: the inputs are mapped
/// one after another) gets the default action.
const SLOTS: usize = 16;

static REGIONS: [AtomicPtr<Region>; SLOTS] = [const { AtomicPtr::new(ptr::null_mut()) }; SLOTS];

/// The registration of one map; dropping it (with the map) empties its slot.
pub struct Registered {
    slot: Option<usize>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            // The record is not freed: a handler on another thread may be reading it.
            REGIONS[i].store(ptr::null_mut(), Ordering::Release);
        }
    }
}

/// The line written when `path`'s map loses pages under the run.
fn message(path: &Path) -> String {
    format!(
        "iribulk: cannot read input '{}': the file was truncated while iribulk read it through \
         a memory map (SIGBUS at a page past its new end). The run stopped; the output written \
         so far is incomplete, temporary outputs were removed and an existing --out was left \
         as it was. Use --no-mmap for a file that another process may truncate or rewrite\n",
        path.display()
    )
}

/// Registers the map `bytes` of the input `path`, until the returned value is dropped.
pub fn register(bytes: &[u8], path: &Path) -> Registered {
    let region = Box::into_raw(Box::new(Region {
        start: bytes.as_ptr() as usize,
        end: bytes.as_ptr() as usize + bytes.len(),
        message: message(path).into_bytes().into_boxed_slice(),
    }));
    for (i, slot) in REGIONS.iter().enumerate() {
        if slot
            .compare_exchange(ptr::null_mut(), region, Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
        {
            return Registered { slot: Some(i) };
        }
    }
    // SAFETY: `region` came from `Box::into_raw` above and was published to no slot.
    drop(unsafe { Box::from_raw(region) });
    Registered { slot: None }
}

/// The message for a fault at `addr`, when it lies in a registered map.
#[cfg_attr(not(all(unix, feature = "signals")), allow(dead_code))]
fn message_for(addr: usize) -> Option<&'static [u8]> {
    REGIONS.iter().find_map(|slot| {
        let r = slot.load(Ordering::Acquire);
        // SAFETY: a non-null slot holds a record from `Box::into_raw` in `register`, which is
        // never freed once published.
        let r: &'static Region = unsafe { r.as_ref() }?;
        (r.start <= addr && addr < r.end).then_some(&*r.message)
    })
}

/// Puts the SIGBUS action in place (see the module's documentation). Called once by the
/// command, next to [`super::output::install_signal_cleanup`].
#[cfg(all(unix, feature = "signals"))]
pub fn install() -> std::io::Result<()> {
    // SAFETY: the action is async-signal-safe (see `on_sigbus`).
    unsafe { signal_hook_registry::register_sigaction(libc::SIGBUS, on_sigbus) }?;
    Ok(())
}

/// The SIGBUS action. It reads atomics and never-freed records, allocates nothing, takes no
/// lock it could wait for (`output::remove_temps_in_handler` uses `try_lock` and a stack
/// buffer), and calls only `write`, `unlink`, `_exit` and, for a fault that is not ours,
/// signal-hook's emulation of the default action (`sigaction`, `raise`).
#[cfg(all(unix, feature = "signals"))]
fn on_sigbus(info: &libc::siginfo_t) {
    // SAFETY: the kernel fills `si_addr` for SIGBUS (the address of the faulting access).
    let addr = unsafe { info.si_addr() } as usize;
    let Some(msg) = message_for(addr) else {
        let _ = signal_hook::low_level::emulate_default_handler(libc::SIGBUS);
        return;
    };
    super::output::remove_temps_in_handler();
    // SAFETY: `msg` is a live slice of `msg.len()` bytes; a closed descriptor 2 only makes the
    // write fail.
    unsafe { libc::write(2, msg.as_ptr().cast(), msg.len()) };
    signal_hook::low_level::exit(1);
}

/// Without Unix signals there is nothing to install.
#[cfg(all(not(unix), feature = "signals"))]
pub fn install() -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_is_ours_only_inside_a_registered_map() {
        let bytes = vec![7u8; 100];
        let start = bytes.as_ptr() as usize;
        let r = register(&bytes, Path::new("in.txt"));
        let m = message_for(start + 99).expect("inside the map");
        let m = std::str::from_utf8(m).unwrap();
        assert!(m.contains("'in.txt'") && m.contains("--no-mmap"), "{m}");
        assert!(
            message_for(start + 100).is_none_or(|m| m != message(Path::new("in.txt")).as_bytes())
        );
        drop(r);
        assert!(message_for(start)
            .is_none_or(|m| !std::str::from_utf8(m).unwrap().contains("'in.txt'")));
    }
}
