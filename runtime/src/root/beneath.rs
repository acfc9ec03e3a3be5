//! Opening a path beneath a folder handle, so that the kernel — not a
//! check made a moment before — decides what is opened (D12).
//!
//! The fast way is one `openat2` call with `RESOLVE_BENEATH` and
//! `RESOLVE_NO_SYMLINKS`: it opens the file if no component is a symlink
//! and nothing leaves the folder. Any other outcome — a symlink on the
//! path, a kernel without `openat2`, a rename racing the lookup — falls
//! back to a walk that opens one component at a time with `O_NOFOLLOW`
//! from the handle of the folder before it, and follows a symlink itself
//! only while its target, read as text, stays inside the root. Nothing
//! outside the root is ever opened, looked up or stat'ed.

use rustix::fs::{FileType, Mode, OFlags, Stat};
use rustix::io::Errno;
use std::ffi::OsString;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt;
use std::path::{Component, Path, PathBuf};

/// Symlinks followed on one path before giving up (Linux's own limit).
const MAX_HOPS: usize = 40;

/// What the path must be opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    /// Reading its bytes: opened without blocking (a FIFO would wait for
    /// a writer), never as the controlling terminal.
    Read,
    /// Listing its entries.
    Folder,
    /// Only asking what it is.
    Look,
}

/// Why nothing was opened.
#[derive(Debug)]
pub(super) enum Failure {
    /// Nothing is at the path.
    Missing,
    /// The path, or a symlink on it, leads outside the root.
    Outside,
    /// The operating system refused (including too many symlinks).
    Os(std::io::Error),
}

impl From<Errno> for Failure {
    fn from(e: Errno) -> Failure {
        match e {
            Errno::NOENT => Failure::Missing,
            other => Failure::Os(other.into()),
        }
    }
}

/// A file opened beneath the root.
#[derive(Debug)]
pub(super) struct Opened {
    /// The open handle.
    pub fd: OwnedFd,
    /// What the handle is (from `fstat` on it, not on a path).
    pub stat: Stat,
    /// Its path inside the root, with every symlink resolved.
    pub real: PathBuf,
}

fn flags(want: Want) -> OFlags {
    let base = OFlags::CLOEXEC | OFlags::NOCTTY;
    match want {
        Want::Read => base | OFlags::RDONLY | OFlags::NONBLOCK,
        Want::Folder => base | OFlags::RDONLY | OFlags::DIRECTORY,
        // `openat2` refuses `O_PATH` with any flag but a few (EINVAL).
        #[cfg(any(target_os = "linux", target_os = "android"))]
        Want::Look => OFlags::CLOEXEC | OFlags::PATH,
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        Want::Look => base | OFlags::RDONLY | OFlags::NONBLOCK,
    }
}

/// Opens `rel` (relative to the root, with no `..` or `.` in it) beneath
/// the root's handle `root_fd`; `root` is the root's absolute, canonical
/// path, against which absolute symlink targets are checked.
pub(super) fn open(root_fd: BorrowedFd<'_>, root: &Path, rel: &Path, want: Want) -> Result<Opened, Failure> {
    if let Some(fd) = kernel::open(root_fd, rel, flags(want)) {
        let fd = fd?;
        let stat = rustix::fs::fstat(&fd)?;
        return Ok(Opened {
            fd,
            stat,
            real: rel.to_path_buf(),
        });
    }
    walk(root_fd, root, rel, want)
}

/// One step of the walk: a folder held open, by its name.
struct Held {
    name: OsString,
    fd: OwnedFd,
}

/// The path one component at a time, each opened with `O_NOFOLLOW` from
/// the folder before it; symlinks are read and their targets walked in
/// turn, `..` steps back to the folder held before (never above the root).
fn walk(root_fd: BorrowedFd<'_>, root: &Path, rel: &Path, want: Want) -> Result<Opened, Failure> {
    // Names still to walk, the next one last.
    let mut pending: Vec<OsString> = Vec::new();
    push_names(&mut pending, rel);
    let mut held: Vec<Held> = Vec::new();
    let mut hops = 0;
    while let Some(name) = pending.pop() {
        if name == ".." {
            held.pop().ok_or(Failure::Outside)?;
            continue;
        }
        let at = held.last().map_or(root_fd, |h| h.fd.as_fd());
        let last = pending.is_empty();
        let step = if last { flags(want) } else { flags(Want::Folder) };
        let refused = match rustix::fs::openat(at, name.as_os_str(), step | OFlags::NOFOLLOW, Mode::empty()) {
            Ok(fd) => {
                let stat = rustix::fs::fstat(&fd)?;
                // `O_PATH` with `O_NOFOLLOW` opens a symlink itself.
                if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
                    if !last {
                        held.push(Held { name, fd });
                        continue;
                    }
                    let real = real_path(&held, Some(name));
                    return Ok(Opened { fd, stat, real });
                }
                Errno::LOOP
            }
            // A symlink (or a name that is no folder): which one, the
            // link itself says.
            Err(e @ (Errno::LOOP | Errno::NOTDIR | Errno::MLINK)) => e,
            Err(e) => return Err(e.into()),
        };
        hops += 1;
        if hops > MAX_HOPS {
            return Err(Failure::Os(Errno::LOOP.into()));
        }
        match rustix::fs::readlinkat(at, name.as_os_str(), Vec::new()) {
            Ok(target) => follow(
                &mut pending,
                &mut held,
                root,
                PathBuf::from(OsString::from_vec(target.into_bytes())),
            )?,
            // Not a symlink: a file where a folder was wanted.
            Err(Errno::INVAL) if refused == Errno::NOTDIR => return Err(refused.into()),
            // No longer a symlink (replaced since): look at it again.
            Err(Errno::INVAL) => pending.push(name),
            Err(e) => return Err(e.into()),
        }
    }
    // The path ended on a folder held (the root itself, or a link to it).
    let at = held.last().map_or(root_fd, |h| h.fd.as_fd());
    let fd = rustix::fs::openat(at, ".", flags(want), Mode::empty())?;
    let stat = rustix::fs::fstat(&fd)?;
    Ok(Opened {
        fd,
        stat,
        real: real_path(&held, None),
    })
}

/// Continues the walk at a symlink's `target`: a relative one from the
/// folder the link is in, an absolute one from the root when it names a
/// place inside the root's path, else the path leads outside.
fn follow(pending: &mut Vec<OsString>, held: &mut Vec<Held>, root: &Path, target: PathBuf) -> Result<(), Failure> {
    if target.is_absolute() {
        // Compared as text: the outside path is never looked up.
        let inside = target.strip_prefix(root).map_err(|_| Failure::Outside)?;
        held.clear();
        push_names(pending, inside);
    } else {
        push_names(pending, &target);
    }
    Ok(())
}

/// Puts the names of `path` on `pending`, so that its first is walked next.
fn push_names(pending: &mut Vec<OsString>, path: &Path) {
    let names = path.components().filter_map(|c| match c {
        Component::Normal(n) => Some(n.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
    });
    let names: Vec<OsString> = names.collect();
    pending.extend(names.into_iter().rev());
}

fn real_path(held: &[Held], last: Option<OsString>) -> PathBuf {
    let mut real: PathBuf = held.iter().map(|h| h.name.as_os_str()).collect();
    if let Some(name) = last {
        real.push(name);
    }
    real
}

/// The one-call open, where the kernel has it.
#[cfg(any(target_os = "linux", target_os = "android"))]
mod kernel {
    use rustix::fs::{Mode, OFlags, ResolveFlags};
    use rustix::io::Errno;
    use std::os::fd::{BorrowedFd, OwnedFd};
    use std::path::Path;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Set once `openat2` is found missing (before Linux 5.6, or refused
    /// by a seccomp filter), so it is not asked again.
    static MISSING: AtomicBool = AtomicBool::new(false);

    /// `rel` opened in one call, or `None` when the walk must decide: a
    /// symlink on the path, a path leaving the root, a racing rename, an
    /// error the walk will name.
    pub(super) fn open(root_fd: BorrowedFd<'_>, rel: &Path, flags: OFlags) -> Option<Result<OwnedFd, Errno>> {
        if MISSING.load(Ordering::Relaxed) {
            return None;
        }
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        let how = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match rustix::fs::openat2(root_fd, rel, flags, Mode::empty(), how) {
            Ok(fd) => Some(Ok(fd)),
            // With no symlink followed, a missing name is missing.
            Err(Errno::NOENT) => Some(Err(Errno::NOENT)),
            Err(Errno::NOSYS | Errno::PERM) => {
                MISSING.store(true, Ordering::Relaxed);
                None
            }
            Err(_) => None,
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
mod kernel {
    use rustix::fs::OFlags;
    use rustix::io::Errno;
    use std::os::fd::{BorrowedFd, OwnedFd};
    use std::path::Path;

    /// No one-call open here: the walk always decides.
    pub(super) fn open(_: BorrowedFd<'_>, _: &Path, _: OFlags) -> Option<Result<OwnedFd, Errno>> {
        None
    }
}

/// The walk alone, as on a kernel without `openat2`.
#[cfg(test)]
pub(super) fn walk_only(root_fd: BorrowedFd<'_>, root: &Path, rel: &Path, want: Want) -> Result<Opened, Failure> {
    walk(root_fd, root, rel, want)
}
