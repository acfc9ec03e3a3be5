//! The one way bpvm puts a file on disk: whatever is at the path, whatever
//! is planted beside it and however the run ends, the only thing that can
//! change is the regular file that was asked for.
//!
//! A leaf: imports nothing from this crate.

mod destination;
mod interrupt;
mod mode;
mod writeback;

pub use interrupt::{TrackedDir, interrupted};

use std::io::Write;
use std::path::Path;

/// Replaces the regular file at `path` (named on the command line by
/// `flag`) with `text`, or creates it.
///
/// The text goes to a new file, created exclusively under an unpredictable
/// name in the same folder, is flushed to disk, and is renamed over `path`:
/// a reader sees the old file or the whole new one, and the rename replaces
/// the name itself, never what a symlink there points at. A destination that
/// is anything but a regular file is refused. A replaced file's mode is
/// kept. The temporary file is removed on every error and on SIGINT/SIGTERM.
pub fn atomically(flag: &str, path: &Path, text: &str) -> Result<(), String> {
    replace(flag, path, |mut out| out.write_all(text.as_bytes()), true)
}

/// [`atomically`], with the text written by `write` as it makes it: a
/// large file is never whole in memory (a 7.6 MB batch report took 16 ms
/// to make as one text, most of it the memory's first touch, and 8 ms
/// written as it went), and its parts go to disk as they are written
/// (see `writeback`).
pub fn atomically_streamed(
    flag: &str,
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    replace(
        flag,
        path,
        |file| {
            let mut out = std::io::BufWriter::with_capacity(1 << 16, writeback::Writeback::new(file));
            write(&mut out)?;
            out.flush()
        },
        true,
    )
}

/// [`atomically`], but not flushed to disk: a command that writes many
/// files calls [`durable`] once after the last of them instead, so that
/// a thousand files do not wait for a thousand flushes.
pub fn atomically_unsynced(flag: &str, path: &Path, text: &str) -> Result<(), String> {
    replace(flag, path, |mut out| out.write_all(text.as_bytes()), false)
}

/// Flushes to disk everything written on the file system that holds
/// `folder` (named by `flag`): after it, files written with
/// [`atomically_unsynced`] there survive a crash of the machine.
pub fn durable(flag: &str, folder: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("error: {flag} {}: cannot flush it to disk: {e}", folder.display());
    let dir = std::fs::File::open(folder).map_err(fail)?;
    sync_filesystem(&dir).map_err(fail)
}

#[cfg(target_os = "linux")]
fn sync_filesystem(dir: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: the descriptor is open for the duration of the call.
    if unsafe { libc::syncfs(dir.as_raw_fd()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn sync_filesystem(_: &std::fs::File) -> std::io::Result<()> {
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() };
    Ok(())
}

fn replace(
    flag: &str,
    path: &Path,
    write: impl FnOnce(&std::fs::File) -> std::io::Result<()>,
    sync: bool,
) -> Result<(), String> {
    let fail = |what: String| format!("error: {flag} {}: {what}", path.display());
    let dest = destination::inspect(path).map_err(fail)?;
    let mut builder = tempfile::Builder::new();
    // The `.tmp` ending lets a leftover be recognised for what it is.
    builder.prefix(".bpvm-").suffix(".tmp");
    if dest.replaced.is_none() {
        builder.permissions(mode::for_new_file());
    }
    let tmp = interrupt::Tracked::create(|| builder.tempfile_in(&dest.folder)).map_err(|e| {
        fail(format!(
            "cannot create a temporary file in {}: {e}",
            dest.folder.display()
        ))
    })?;
    let written = write(tmp.file()).and_then(|()| {
        if let Some(old) = &dest.replaced {
            tmp.file().set_permissions(mode::kept(old))?;
        }
        if sync { tmp.file().sync_all() } else { Ok(()) }
    });
    written.map_err(|e| fail(format!("cannot write: {e}")))?;
    tmp.persist(path).map_err(|e| fail(format!("cannot write: {e}")))
}

/// A command's output: on stdout, or with `--out FILE` into FILE, atomically.
pub fn output(out: Option<&Path>, text: &str) -> Result<(), String> {
    match out {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(path) => atomically("--out", path, text),
    }
}
