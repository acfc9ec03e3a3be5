//! The one way bpvm reads a file that a template or blueprint names (D8,
//! D12).
//!
//! A [`Root`] is a folder (a Windsor project, a Bluelink blueprint's
//! folder) held open: every file is opened beneath that handle by the
//! kernel (see `beneath.rs`), symlinks are followed only while they stay
//! inside, only regular files are read (a FIFO would block, a device
//! would never end), and no file larger than [`MAX_FILE_BYTES`] is read.
//! Facet functions, Jsonnet imports, context folders, blueprint includes
//! and Bluelink `file()` all go through it, so the rule holds in one place.
//!
//! A path is never checked and then opened again: what is read is what
//! the handle the kernel gave names. A path that leaves the root as
//! written is refused before anything is looked up, and one that leaves
//! it through a symlink is refused on the link's text, so whether
//! something exists outside is never looked at, and the message is the
//! same either way and never says where the path leads.
//!
//! A hard link inside the root to a file outside it is read: the kernel
//! cannot tell it from the file's other names (it is the same file).

mod beneath;
mod env_key;
pub mod inputs;
mod listing;
pub mod overlay;
mod refusal;
mod shown;

pub use listing::{Entry, Kind, Listing};
pub use refusal::{AccessError, MAX_FILE_BYTES, Refusal};
pub use shown::shown;

use beneath::{Failure, Opened, Want};
use inputs::Seen;
use rustix::fs::{FileType, Stat};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

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
#[derive(Debug, Clone)]
pub struct Root {
    dir: PathBuf,
    /// The folder as the user gave it, for the paths messages print.
    given: PathBuf,
    what: &'static str,
    /// The folder, held open: every file is opened beneath it.
    handle: Arc<OwnedFd>,
}

impl PartialEq for Root {
    fn eq(&self, other: &Root) -> bool {
        self.dir == other.dir && self.what == other.what
    }
}

impl Eq for Root {}

/// A file read through the root: where it is and its bytes.
#[derive(Debug)]
pub struct Fetched {
    /// The file's absolute path inside the root, symlinks resolved.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

impl Root {
    /// The root at `dir` (which must exist and be a folder), held open;
    /// `what` names it in messages ("project", "blueprint root").
    pub fn new(dir: &Path, what: &'static str) -> io::Result<Root> {
        let given = dir.to_path_buf();
        let dir = dir.canonicalize()?;
        let flags = rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC;
        let handle = rustix::fs::open(&dir, flags, rustix::fs::Mode::empty())?;
        Ok(Root {
            dir,
            given,
            what,
            handle: Arc::new(handle),
        })
    }

    /// The bytes of a file opened beneath the root: an editor's unsaved
    /// text of it (see [`overlay`]) when there is one, else what is on
    /// disk. Either way the file must be regular and within the size limit.
    fn bytes(&self, opened: Opened) -> Result<Vec<u8>, Refusal> {
        let Some(text) = overlay::text(&self.dir.join(&opened.real)) else {
            return read_regular(opened.fd, &opened.stat);
        };
        regular(&opened.stat)?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(Refusal::TooLarge(text.len() as u64));
        }
        Ok(text.to_vec())
    }

    /// The root folder, absolute and with symlinks resolved.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file `file` (relative to the root) as messages print it: as it
    /// can be opened from where bpvm runs, the folder as it was given
    /// joined with `file` (see [`shown`]).
    ///
    /// ```
    /// use bpvm_runtime::root::Root;
    /// let root = Root::new(std::path::Path::new("."), "project").unwrap();
    /// assert_eq!(root.shown("contexts/dev/values.yaml"), "contexts/dev/values.yaml");
    /// ```
    pub fn shown(&self, file: &str) -> String {
        shown(&self.given, file)
    }

    fn refuse(&self, path: &str, refusal: Refusal) -> AccessError {
        AccessError {
            path: path.to_string(),
            refusal,
            what: self.what,
            root: self.dir.clone(),
        }
    }

    /// Opens `path` (relative to the folder `from`, or absolute) beneath
    /// the root for `want`.
    /// Also the path as asked for (absolute, `..` resolved on its text),
    /// by which input tracking names it: a symlink is followed again when
    /// the input is checked, so pointing it elsewhere is a change.
    fn open(&self, from: &Path, path: &str, want: Want) -> Result<(Opened, PathBuf), AccessError> {
        self.open_os(from, Path::new(path), path, want)
    }

    /// [`Root::open`] of a path that may not be UTF-8, `shown` in messages.
    fn open_os(&self, from: &Path, path: &Path, shown: &str, want: Want) -> Result<(Opened, PathBuf), AccessError> {
        // Refused before the file system is asked, so a template cannot
        // learn which files exist outside the root.
        let lexical = normalize(&from.join(path));
        let Ok(rel) = lexical.strip_prefix(&self.dir) else {
            return Err(self.refuse(shown, Refusal::Outside(lexical)));
        };
        let failure = match beneath::open(self.handle.as_fd(), &self.dir, rel, want) {
            Ok(opened) => return Ok((opened, lexical)),
            Err(failure) => failure,
        };
        let refusal = match failure {
            Failure::Missing => {
                inputs::seen(&lexical, Seen::Missing);
                Refusal::Missing
            }
            Failure::Outside => Refusal::Outside(lexical),
            Failure::Os(e) => Refusal::Io(e),
        };
        Err(self.refuse(shown, refusal))
    }

    /// `path` (relative to the folder `from`, or absolute) as a real path
    /// inside the root: symlinks followed, `..` resolved (on the path's
    /// text, before any symlink is followed).
    pub fn resolve(&self, from: &Path, path: &str) -> Result<PathBuf, AccessError> {
        let (opened, asked) = self.open(from, path, Want::Look)?;
        inputs::seen(&asked, Seen::Kind(Kind::of(&opened.stat)));
        Ok(self.dir.join(opened.real))
    }

    /// What is at `path` (see [`Root::resolve`]), symlinks followed inside
    /// the root.
    pub fn kind(&self, from: &Path, path: &str) -> Result<Kind, AccessError> {
        let (opened, asked) = self.open(from, path, Want::Look)?;
        inputs::seen(&asked, Seen::Kind(Kind::of(&opened.stat)));
        Ok(Kind::of(&opened.stat))
    }

    /// [`Root::kind`] of a path that may not be UTF-8, `shown` in messages.
    pub fn kind_os(&self, path: &Path, shown: &str) -> Result<Kind, AccessError> {
        let (opened, asked) = self.open_os(&self.dir, path, shown, Want::Look)?;
        inputs::seen(&asked, Seen::Kind(Kind::of(&opened.stat)));
        Ok(Kind::of(&opened.stat))
    }

    /// [`Root::read`] of a path that may not be UTF-8 (a file listed by
    /// [`Root::list`]), `shown` in messages.
    pub fn read_os(&self, path: &Path, shown: &str) -> Result<Vec<u8>, AccessError> {
        let (opened, asked) = self.open_os(&self.dir, path, shown, Want::Read)?;
        let bytes = self.bytes(opened).map_err(|r| self.refuse(shown, r))?;
        inputs::file(&asked, &bytes);
        Ok(bytes)
    }

    /// The regular file at `path` (see [`Root::resolve`]), resolved: a name
    /// for it. To read it, use [`Root::fetch`] or [`Root::read`], which
    /// open it beneath the root again rather than trusting this path.
    pub fn file(&self, from: &Path, path: &str) -> Result<PathBuf, AccessError> {
        let (opened, asked) = self.open(from, path, Want::Read)?;
        regular(&opened.stat).map_err(|r| self.refuse(path, r))?;
        inputs::seen(&asked, Seen::Kind(Kind::File));
        Ok(self.dir.join(opened.real))
    }

    /// The regular file at `path`, read through one handle: its real path
    /// and its bytes.
    pub fn fetch(&self, from: &Path, path: &str) -> Result<Fetched, AccessError> {
        let (opened, asked) = self.open(from, path, Want::Read)?;
        let real = self.dir.join(&opened.real);
        let bytes = self.bytes(opened).map_err(|r| self.refuse(path, r))?;
        inputs::file(&asked, &bytes);
        Ok(Fetched { path: real, bytes })
    }

    /// The bytes of the regular file at `path`.
    pub fn read(&self, from: &Path, path: &str) -> Result<Vec<u8>, AccessError> {
        let (opened, asked) = self.open(from, path, Want::Read)?;
        let bytes = self.bytes(opened).map_err(|r| self.refuse(path, r))?;
        inputs::file(&asked, &bytes);
        Ok(bytes)
    }

    /// The text of the regular file at `path`.
    pub fn read_string(&self, from: &Path, path: &str) -> Result<String, AccessError> {
        String::from_utf8(self.read(from, path)?).map_err(|_| self.refuse(path, Refusal::NotText))
    }

    /// The entries of the folder at `path` (see [`Root::resolve`]), read
    /// from its handle; `None` when there is no such folder.
    pub fn list(&self, from: &Path, path: &str) -> Result<Option<Listing>, AccessError> {
        let (opened, asked) = match self.open(from, path, Want::Folder) {
            Ok(o) => o,
            Err(e) if e.is_missing() => return Ok(None),
            Err(e) => return Err(e),
        };
        let real = self.dir.join(&opened.real);
        // A symlink's kind is its target's, looked up through the root.
        // Not noted as an input of its own: the listing's hash holds each
        // entry's name and kind, so an entry added, removed or changed in
        // kind is a change of the folder already.
        let look = |name: &std::ffi::OsStr| {
            let full = real.join(name);
            let shown = full.strip_prefix(&self.dir).unwrap_or(&full).to_string_lossy();
            inputs::quiet(|| self.kind_os(&full, &shown))
        };
        let listing = listing::read(opened.fd, &opened.stat, look).map_err(|e| self.refuse(path, Refusal::Io(e)))?;
        inputs::folder(&asked, &listing);
        Ok(Some(listing))
    }

    /// What is at `path` (absolute, inside the root) now, seen the way
    /// `before` was (read, listed or looked at), without noting it as an
    /// input: equal to `before` when that input has not changed.
    ///
    /// ```
    /// use bpvm_runtime::root::{Root, inputs};
    /// let dir = std::env::temp_dir().join(format!("bpvm-again-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("a.txt"), "one").unwrap();
    /// let root = Root::new(&dir, "project").unwrap();
    /// let r = inputs::Recorder::new();
    /// inputs::track(&r, || root.read(root.dir(), "a.txt").unwrap());
    /// let (path, before) = r.inputs().files.into_iter().next().unwrap();
    /// let path = std::path::PathBuf::from(path);
    /// assert_eq!(root.seen_again(&path, &before), before);
    /// std::fs::write(dir.join("a.txt"), "two").unwrap();
    /// assert_ne!(root.seen_again(&path, &before), before);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn seen_again(&self, path: &Path, before: &Seen) -> Seen {
        let shown = path.to_string_lossy();
        let want = match before {
            Seen::File(_) => Want::Read,
            Seen::Folder(_) => Want::Folder,
            Seen::Kind(_) | Seen::Missing => Want::Look,
        };
        let opened = match self.open_os(&self.dir, path, &shown, want) {
            Ok((opened, _)) => opened,
            Err(e) if e.is_missing() => return Seen::Missing,
            Err(_) => return Seen::Kind(Kind::Other),
        };
        match before {
            Seen::File(_) => match self.bytes(opened) {
                Ok(bytes) => Seen::File(inputs::hash_value(&bytes)),
                Err(_) => Seen::Kind(Kind::Other),
            },
            Seen::Folder(_) => {
                let look = |name: &std::ffi::OsStr| {
                    let full = self.dir.join(&opened.real).join(name);
                    let opened = self.open_os(&self.dir, &full, &full.to_string_lossy(), Want::Look);
                    opened.map(|(o, _)| Kind::of(&o.stat))
                };
                match listing::read(opened.fd, &opened.stat, look) {
                    Ok(listing) => Seen::Folder(inputs::listing_hash(&listing)),
                    Err(_) => Seen::Kind(Kind::Other),
                }
            }
            _ => Seen::Kind(Kind::of(&opened.stat)),
        }
    }
}

/// `p` with `.` and `..` steps resolved on its text (not through links).
///
/// ```
/// use bpvm_runtime::root::normalize;
/// use std::path::Path;
/// assert_eq!(normalize(Path::new("/a/./b/../c")), Path::new("/a/c"));
/// ```
pub fn normalize(p: &Path) -> PathBuf {
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
fn kind_name(stat: &Stat) -> &'static str {
    match FileType::from_raw_mode(stat.st_mode) {
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::BlockDevice | FileType::CharacterDevice => "a device",
        FileType::Directory => "a folder",
        _ => "not a regular file",
    }
}

fn regular(stat: &Stat) -> Result<(), Refusal> {
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(Refusal::NotRegular(kind_name(stat)));
    }
    let len = stat.st_size as u64;
    if len > MAX_FILE_BYTES {
        return Err(Refusal::TooLarge(len));
    }
    Ok(())
}

/// The bytes of the opened file: the handle was checked, not a path.
fn read_regular(fd: OwnedFd, stat: &Stat) -> Result<Vec<u8>, Refusal> {
    regular(stat)?;
    let file = File::from(fd);
    let mut bytes = Vec::with_capacity(stat.st_size as usize + 1);
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
mod tests;
