//! A folder's entries, read from the handle the root opened it by, each
//! with what it is — a symlink's kind is its target's, looked up through
//! the root, so a link leading outside or nowhere is said, not skipped.

use super::refusal::AccessError;
use rustix::fs::{Dir, FileType, Stat};
use std::ffi::{OsStr, OsString};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;

/// What an entry is, symlinks followed inside the root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A regular file.
    File,
    /// A folder.
    Folder,
    /// Anything else (a FIFO, a socket, a device).
    Other,
}

impl Kind {
    pub(super) fn of(stat: &Stat) -> Kind {
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => Kind::File,
            FileType::Directory => Kind::Folder,
            _ => Kind::Other,
        }
    }
}

/// One entry of a folder.
#[derive(Debug)]
pub struct Entry {
    /// Its name, as the operating system has it (it may not be UTF-8).
    pub name: OsString,
    /// What it is, or why the symlink it is leads nowhere the root reads.
    pub kind: Result<Kind, AccessError>,
    /// `true` when the entry is a symlink.
    pub link: bool,
}

/// A folder's entries, in name order.
#[derive(Debug)]
pub struct Listing {
    /// The folder's identity (device, inode): a walk that meets it again
    /// has gone round a symlink cycle.
    pub id: (u64, u64),
    /// Its entries, but `.` and `..`, sorted by name.
    pub entries: Vec<Entry>,
}

/// The entries of the folder opened as `fd`; `look` says what the entry
/// of a name is when the folder does not (a symlink, say).
pub(super) fn read(
    fd: OwnedFd,
    stat: &Stat,
    look: impl Fn(&OsStr) -> Result<Kind, AccessError>,
) -> io::Result<Listing> {
    // The fields' widths differ between systems.
    #[allow(clippy::unnecessary_cast)]
    let id = (stat.st_dev as u64, stat.st_ino as u64);
    let mut entries = Vec::new();
    for entry in Dir::new(fd)? {
        let entry = entry?;
        let bytes = entry.file_name().to_bytes();
        if bytes == b"." || bytes == b".." {
            continue;
        }
        let name = OsString::from(OsStr::from_bytes(bytes));
        let (kind, link) = match entry.file_type() {
            FileType::RegularFile => (Ok(Kind::File), false),
            FileType::Directory => (Ok(Kind::Folder), false),
            FileType::Symlink => (look(&name), true),
            FileType::Unknown => (look(&name), false),
            _ => (Ok(Kind::Other), false),
        };
        entries.push(Entry { name, kind, link });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Listing { id, entries })
}
