//! The one way bpvm reads a file that a template or blueprint names (D8).
//!
//! A [`Root`] is a folder (a Windsor project, a Bluelink blueprint's
//! folder): every path is resolved with symlinks followed and must land
//! inside it, only regular files are read (a FIFO would block, a device
//! would never end), and no file larger than [`MAX_FILE_BYTES`] is read.
//! Facet functions, Jsonnet imports, context folders, blueprint includes
//! and Bluelink `file()` all go through it, so the rule holds in one place.

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

/// The largest file a template may make bpvm read: 64 MiB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A folder that files are read from, and never outside of.
///
/// ```
/// use bpvm_runtime::root::Root;
/// let dir = std::env::temp_dir().join(format!("bpvm-root-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("configs")).unwrap();
/// std::fs::write(dir.join("configs/a.txt"), "hello").unwrap();
/// let root = Root::new(&dir, "project").unwrap();
/// let from = root.dir().join("configs");
/// assert_eq!(root.read_string(&from, "a.txt").unwrap(), "hello");
/// let err = root.read_string(&from, "../../outside.txt").unwrap_err();
/// assert!(err.to_string().contains("outside the project"), "{err}");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    dir: PathBuf,
    what: &'static str,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// Nothing is at the path.
    Missing,
    /// The path (after following symlinks) is outside the root.
    Outside(PathBuf),
    /// The path is not a regular file: what it is instead.
    NotRegular(&'static str),
    /// The file is larger than [`MAX_FILE_BYTES`]: its size.
    TooLarge(u64),
    /// The file is not UTF-8 text where text was wanted.
    NotText,
    /// The operating system refused.
    Io(io::Error),
}

/// A file that was not read, with the path as it was written and the rule
/// that refused it.
#[derive(Debug)]
pub struct AccessError {
    /// The path as the template wrote it.
    pub path: String,
    /// The rule that refused it.
    pub refusal: Refusal,
    what: &'static str,
    root: PathBuf,
}

impl AccessError {
    /// `true` when nothing is at the path (callers that treat a missing
    /// file as "use the text itself" need to tell this apart).
    pub fn is_missing(&self) -> bool {
        matches!(self.refusal, Refusal::Missing)
    }
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = &self.path;
        match &self.refusal {
            Refusal::Missing => write!(f, "{path:?}: no such file"),
            Refusal::Outside(to) => write!(
                f,
                "{path:?} is outside the {} {}: it resolves to {} (files are read only inside it; symlinks are followed)",
                self.what,
                self.root.display(),
                to.display()
            ),
            Refusal::NotRegular(kind) => write!(f, "{path:?} is {kind}; only regular files are read"),
            Refusal::TooLarge(n) => write!(
                f,
                "{path:?} is {n} bytes, over the limit of {MAX_FILE_BYTES} bytes (64 MiB) for one file"
            ),
            Refusal::NotText => write!(f, "{path:?} is not UTF-8 text"),
            Refusal::Io(e) => write!(f, "{path:?} cannot be read: {e}"),
        }
    }
}

impl std::error::Error for AccessError {}

impl Root {
    /// The root at `dir` (which must exist); `what` names it in messages
    /// ("project", "blueprint root").
    pub fn new(dir: &Path, what: &'static str) -> io::Result<Root> {
        Ok(Root {
            dir: dir.canonicalize()?,
            what,
        })
    }

    /// The root folder, absolute and with symlinks resolved.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn refuse(&self, path: &str, refusal: Refusal) -> AccessError {
        AccessError {
            path: path.to_string(),
            refusal,
            what: self.what,
            root: self.dir.clone(),
        }
    }

    /// `path` (relative to the folder `from`, or absolute) as a real path
    /// inside the root: symlinks followed, `..` resolved.
    pub fn resolve(&self, from: &Path, path: &str) -> Result<PathBuf, AccessError> {
        // Refused before the file system is asked, so a template cannot
        // learn which files exist outside the root.
        let lexical = normalize(&from.join(path));
        if !lexical.starts_with(&self.dir) {
            return Err(self.refuse(path, Refusal::Outside(lexical)));
        }
        let real = match lexical.canonicalize() {
            Ok(p) => p,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(self.refuse(path, Refusal::Missing)),
            Err(e) => return Err(self.refuse(path, Refusal::Io(e))),
        };
        if !real.starts_with(&self.dir) {
            return Err(self.refuse(path, Refusal::Outside(real)));
        }
        Ok(real)
    }

    /// The regular file at `path` (see [`Root::resolve`]), resolved.
    pub fn file(&self, from: &Path, path: &str) -> Result<PathBuf, AccessError> {
        let real = self.resolve(from, path)?;
        let meta = std::fs::metadata(&real).map_err(|e| self.refuse(path, Refusal::Io(e)))?;
        regular(&meta).map_err(|r| self.refuse(path, r))?;
        Ok(real)
    }

    /// The bytes of the regular file at `path`.
    pub fn read(&self, from: &Path, path: &str) -> Result<Vec<u8>, AccessError> {
        let real = self.file(from, path)?;
        read_regular(&real).map_err(|r| self.refuse(path, r))
    }

    /// The text of the regular file at `path`.
    pub fn read_string(&self, from: &Path, path: &str) -> Result<String, AccessError> {
        String::from_utf8(self.read(from, path)?).map_err(|_| self.refuse(path, Refusal::NotText))
    }
}

/// `p` with `.` and `..` steps resolved on its text.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in p.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// What a file that is not a regular file is, for messages.
fn kind(meta: &Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

fn regular(meta: &Metadata) -> Result<(), Refusal> {
    if !meta.is_file() {
        return Err(Refusal::NotRegular(kind(meta)));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge(meta.len()));
    }
    Ok(())
}

/// Opens without blocking (a FIFO swapped in after the check must not
/// hang the render) and without following a final symlink, then checks
/// what was opened, not what the path named a moment before.
fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    options.open(path)
}

fn read_regular(path: &Path) -> Result<Vec<u8>, Refusal> {
    let file = open(path).map_err(Refusal::Io)?;
    let meta = file.metadata().map_err(Refusal::Io)?;
    regular(&meta)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // A file that grows while it is read still stops at the limit.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Dir(PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn scratch(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("bpvm-root-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("in/sub")).unwrap();
        std::fs::write(d.join("outside.txt"), "secret").unwrap();
        std::fs::write(d.join("in/a.txt"), "a").unwrap();
        Dir(d)
    }

    #[test]
    fn relative_paths_resolve_inside() {
        let d = scratch("inside");
        let root = Root::new(&d.0.join("in"), "project").unwrap();
        let sub = root.dir().join("sub");
        assert_eq!(root.read_string(&sub, "../a.txt").unwrap(), "a");
        assert!(root.read_string(&sub, "../missing.txt").unwrap_err().is_missing());
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let d = scratch("symlink");
        std::os::unix::fs::symlink(d.0.join("outside.txt"), d.0.join("in/link.txt")).unwrap();
        let root = Root::new(&d.0.join("in"), "project").unwrap();
        let e = root.read_string(root.dir(), "link.txt").unwrap_err();
        assert!(matches!(e.refusal, Refusal::Outside(_)), "{e}");
        assert!(e.to_string().starts_with("\"link.txt\" is outside the project "), "{e}");
        assert!(
            e.to_string()
                .ends_with("(files are read only inside it; symlinks are followed)")
        );
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_folders_are_not_read() {
        let d = scratch("fifo");
        let fifo = d.0.join("in/pipe");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let root = Root::new(&d.0.join("in"), "project").unwrap();
        let e = root.read(root.dir(), "pipe").unwrap_err();
        assert_eq!(e.to_string(), "\"pipe\" is a FIFO; only regular files are read");
        let e = root.read(root.dir(), "sub").unwrap_err();
        assert_eq!(e.to_string(), "\"sub\" is a folder; only regular files are read");
    }

    #[test]
    fn large_files_are_refused() {
        let d = scratch("large");
        let f = File::create(d.0.join("in/big")).unwrap();
        f.set_len(MAX_FILE_BYTES + 1).unwrap();
        let root = Root::new(&d.0.join("in"), "project").unwrap();
        let e = root.read(root.dir(), "big").unwrap_err();
        assert_eq!(
            e.to_string(),
            "\"big\" is 67108865 bytes, over the limit of 67108864 bytes (64 MiB) for one file"
        );
    }
}
