//! A scratch folder for a test: files, symlinks and FIFOs written into
//! it, removed when the test ends.

use std::path::{Path, PathBuf};

/// A scratch folder removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// An empty folder `bpvm-<name>-<pid>` in the temporary folder,
    /// symlinks in its path resolved.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("bpvm-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir.canonicalize().unwrap())
    }

    /// Writes `text` at `rel`, making its folders.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A symlink at `rel` to `target`.
    pub fn link(&self, rel: &str, target: &Path) {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, path).unwrap();
    }

    /// A FIFO at `rel`.
    pub fn fifo(&self, rel: &str) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success());
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
