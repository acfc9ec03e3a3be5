//! What is at an output path before anything is written there.

use std::fs::{FileType, Metadata};
use std::io::ErrorKind;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};

/// Where the new file goes and what it replaces.
pub struct Destination {
    /// The folder of the destination: the temporary file is made there so
    /// that the final rename stays on one filesystem and is atomic.
    pub folder: PathBuf,
    /// The regular file being replaced, if there is one.
    pub replaced: Option<Metadata>,
}

/// Looks at `path` without following a symlink there. A regular file or
/// nothing are accepted; anything else is refused with what it is.
pub fn inspect(path: &Path) -> Result<Destination, String> {
    let replaced = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_file() => Some(meta),
        Ok(meta) => {
            return Err(format!("is {}; bpvm writes only regular files", kind(meta.file_type())));
        }
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => None,
        Err(e) => return Err(format!("cannot look at it: {e}")),
    };
    if path.file_name().is_none() {
        return Err("names no file".into());
    }
    Ok(Destination {
        folder: folder(path)?,
        replaced,
    })
}

/// The folder `path` is in, which must exist: bpvm does not create folders.
fn folder(path: &Path) -> Result<PathBuf, String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // A symlink to a folder is followed here on purpose: only the last
    // component of the output path must not be a link.
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(dir.to_path_buf()),
        Ok(_) => Err(format!("{} is not a folder", dir.display())),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(format!("the folder {} does not exist", dir.display())),
        Err(e) => Err(format!("cannot reach the folder {}: {e}", dir.display())),
    }
}

fn kind(t: FileType) -> &'static str {
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}
