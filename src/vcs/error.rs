//! What can go wrong reading git: a leaf the other `vcs` modules import.

use std::fmt;
use std::path::PathBuf;

/// Why a revision could not be read or compared.
///
/// ```
/// use bpvm::vcs::Error;
/// let e = Error::UnknownRevision { rev: "mian".into(), suggestion: Some("main".into()) };
/// assert_eq!(e.to_string(), "unknown revision \"mian\": no branch, tag or commit of that name (did you mean \"main\"?)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// No git repository holds the folder.
    NotARepository {
        /// The folder searched from.
        dir: PathBuf,
    },
    /// A bare repository: no work tree to compare with.
    NoWorkTree {
        /// The repository's git folder.
        git_dir: PathBuf,
    },
    /// The revision names nothing in the repository.
    UnknownRevision {
        /// As given.
        rev: String,
        /// The branch or tag whose name is closest, if one is close.
        suggestion: Option<String>,
    },
    /// A shallow clone that does not have the revision's history.
    Shallow {
        /// As given.
        rev: String,
    },
    /// A form that names more than one revision (`A..B`).
    NotOneRevision {
        /// As given.
        rev: String,
    },
    /// A file or link of the revision that is not written
    /// ([`tree_at`](crate::vcs::tree_at)), or a list that cannot be read.
    Refused {
        /// The path in the repository (or the list file).
        path: String,
        /// Why.
        why: String,
    },
    /// Reading or writing a file failed.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The system's reason.
        error: String,
    },
    /// Anything else git's object store or references said.
    Git(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotARepository { dir } => write!(
                f,
                "{}: not in a git repository (no .git in it or in a folder above it)",
                dir.display()
            ),
            Error::NoWorkTree { git_dir } => write!(
                f,
                "{}: a bare repository has no work tree to compare with",
                git_dir.display()
            ),
            Error::UnknownRevision { rev, suggestion } => {
                write!(f, "unknown revision {rev:?}: no branch, tag or commit of that name")?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean {s:?}?)"),
                    None => Ok(()),
                }
            }
            Error::Shallow { rev } => write!(
                f,
                "revision {rev:?} is not in this shallow clone: fetch more history \
                 (git fetch --deepen=100 origin, or fetch-depth: 0 with actions/checkout)"
            ),
            Error::NotOneRevision { rev } => write!(
                f,
                "{rev:?} names a range, not one revision: give one revision, or A...B for the \
                 merge base of A and B"
            ),
            Error::Refused { path, why } => write!(f, "{path}: {why}"),
            Error::Io { path, error } => write!(f, "{}: {error}", path.display()),
            Error::Git(message) => write!(f, "git: {message}"),
        }
    }
}

impl std::error::Error for Error {}

/// An I/O error on `path` as an [`Error`].
pub(crate) fn io(path: impl Into<PathBuf>, error: &std::io::Error) -> Error {
    Error::Io {
        path: path.into(),
        error: error.to_string(),
    }
}

/// What gix said, as an [`Error::Git`].
pub(crate) fn git(error: impl fmt::Display) -> Error {
    Error::Git(error.to_string())
}
