//! Removing the temporary files and folders when a run is interrupted
//! mid-write.

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};
use tempfile::NamedTempFile;

/// The temporary files on disk right now. Every creation, rename and
/// removal happens under this lock, so the signal handler finds each file
/// either registered and present or neither.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere must not stop the handler from cleaning up.
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

fn forget(pending: &mut Vec<PathBuf>, path: &Path) {
    pending.retain(|p| p != path);
}

/// A temporary file that is removed when dropped, and by the handler if
/// SIGINT or SIGTERM arrives while it exists.
pub struct Tracked {
    file: Option<NamedTempFile>,
}

impl Tracked {
    /// Runs `make` and registers what it created, both under the lock.
    pub fn create(make: impl FnOnce() -> io::Result<NamedTempFile>) -> io::Result<Tracked> {
        watch();
        let mut pending = pending();
        let file = make()?;
        pending.push(file.path().to_path_buf());
        Ok(Tracked { file: Some(file) })
    }

    pub fn file(&self) -> &File {
        self.file
            .as_ref()
            .expect("a Tracked file is present until persisted")
            .as_file()
    }

    /// Renames the file over `to`; on failure it is removed.
    pub fn persist(mut self, to: &Path) -> io::Result<()> {
        let file = self.file.take().expect("a Tracked file is present until persisted");
        let mut pending = pending();
        forget(&mut pending, file.path());
        // A failed persist hands the file back inside the error, and dropping
        // it there, still under the lock, removes it.
        file.persist(to).map(drop).map_err(|e| e.error)
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut pending = pending();
            forget(&mut pending, file.path());
            drop(file);
        }
    }
}

/// A temporary folder that is removed with what it holds when dropped,
/// and by the handler if SIGINT or SIGTERM arrives while it exists.
pub struct TrackedDir {
    dir: Option<tempfile::TempDir>,
}

impl TrackedDir {
    /// A new empty folder `<prefix>…` in the system's temporary folder.
    pub fn create(prefix: &str) -> io::Result<TrackedDir> {
        watch();
        let mut pending = pending();
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        pending.push(dir.path().to_path_buf());
        Ok(TrackedDir { dir: Some(dir) })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().expect("a TrackedDir is present until dropped").path()
    }
}

impl Drop for TrackedDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let mut pending = pending();
            forget(&mut pending, dir.path());
            drop(dir);
        }
    }
}

/// Removes `path`: a folder with what it holds (links inside are removed,
/// never followed), anything else alone.
fn remove(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            // The run goes on writing into it until exit: what it adds
            // meanwhile makes a removal fail, and the next try takes it.
            for _ in 0..100 {
                match std::fs::remove_dir_all(path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => continue,
                    _ => break,
                }
            }
        }
        _ => {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Installs the handler once, when the first temporary file is about to be
/// made; until then SIGINT and SIGTERM keep their default effect.
fn watch() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // Should installing fail, the write still happens; only an
        // interrupted one could leave its temporary file, as before.
        let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                interrupted(signal);
            }
        });
    });
}

/// Ends the process as `signal` asks, removing the temporary files on
/// disk first (also what `--watch` calls for Ctrl-C during a run).
pub fn interrupted(signal: i32) -> ! {
    // The lock is kept until exit: no new temporary file after this, and a
    // second handler waits here rather than exiting alongside.
    let mut pending = pending();
    for path in pending.drain(..) {
        remove(&path);
    }
    // The shell's convention for death by a signal: 130, 143.
    std::process::exit(128 + signal)
}
