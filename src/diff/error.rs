//! What stops a rendered diff as a whole (a target that fails to render
//! is not one of these: it is that target's [`Change::Failed`](super::Change)).
//! A leaf.

use std::fmt;

/// Why no diff could be made.
///
/// ```
/// use bpvm::diff::Error;
/// let e = Error::Discovery { place: "at HEAD".into(), problems: vec!["bpvm-batch.yaml:2:5: error: bad".into()] };
/// assert_eq!(e.to_string(), "error: cannot find the targets at HEAD:\nbpvm-batch.yaml:2:5: error: bad");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// Git could not be read, or the revision names nothing.
    Vcs(crate::vcs::Error),
    /// A PATH is not inside the repository's work tree.
    Outside {
        /// The PATH as given.
        path: String,
        /// The work tree's top folder.
        top: String,
    },
    /// Finding one side's targets failed (an unreadable file, a mistake
    /// in `bpvm-batch.yaml`).
    Discovery {
        /// `at HEAD` (the revision as given), or `in the work tree`.
        place: String,
        /// Each problem, as `bpvm batch` prints it.
        problems: Vec<String>,
    },
    /// The folder for the revision's files could not be made.
    Scratch(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Vcs(e) => write!(f, "error: {e}"),
            Error::Outside { path, top } => write!(
                f,
                "error: {path}: not inside the git work tree at {top}: the diff compares folders of one repository"
            ),
            Error::Discovery { place, problems } => {
                write!(f, "error: cannot find the targets {place}:\n{}", problems.join("\n"))
            }
            Error::Scratch(why) => write!(f, "error: cannot make a folder for the revision's files: {why}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<crate::vcs::Error> for Error {
    fn from(e: crate::vcs::Error) -> Error {
        Error::Vcs(e)
    }
}
