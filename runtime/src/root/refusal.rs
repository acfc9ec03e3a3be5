//! Why a file was not read, and how that is said.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// The largest file a template may make bpvm read: 64 MiB.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    /// Nothing is at the path.
    Missing,
    /// The path, as written or through a symlink on it, leads outside the
    /// root: the path as written, made absolute (never where it leads).
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
    pub(super) what: &'static str,
    pub(super) root: PathBuf,
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
            // Where the path leads is not said (D12): the same message
            // whether anything is there or not.
            Refusal::Outside(_) => write!(
                f,
                "{path:?} is outside the {} {} (files are read only inside it; symlinks are followed while they stay inside)",
                self.what,
                self.root.display(),
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
