//! What changed: paths relative to the top of a repository, and, when
//! they were compared with a revision, that revision's files.

use crate::vcs::{self, Revision};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The files that changed, as [`affected`](super::affected) takes them.
///
/// ```no_run
/// use bpvm::batch::Changes;
/// let since_main = Changes::since(std::path::Path::new("."), "origin/main...HEAD")?;
/// let from_ci = Changes::listed(std::path::Path::new("."), std::path::Path::new("changed.txt"))?;
/// println!("{} and {} files changed", since_main.paths.len(), from_ci.paths.len());
/// # Ok::<(), bpvm::vcs::Error>(())
/// ```
pub struct Changes {
    /// The top of the repository's work tree, with links resolved.
    pub top: PathBuf,
    /// The changed files, relative to `top`, `/`-separated.
    pub paths: BTreeSet<String>,
    /// The revision compared with, when there is one: what was there
    /// before (an added file from an edited one, a left-out facet's
    /// condition as it was). Without it every listed path counts as
    /// edited, added or removed, whichever affects more.
    pub before: Option<Revision>,
}

impl Changes {
    /// The files that differ between revision `rev` and the work tree of
    /// the repository holding `dir` (see [`vcs::changed_files`]).
    pub fn since(dir: &Path, rev: &str) -> Result<Changes, vcs::Error> {
        Changes::of(Revision::open(dir, rev)?)
    }

    /// The files that differ between the revision `before` (opened
    /// already) and the work tree (see [`Revision::changed_files`]).
    ///
    /// ```no_run
    /// use bpvm::batch::Changes;
    /// let main = bpvm::vcs::Revision::open(std::path::Path::new("."), "origin/main")?;
    /// let changes = Changes::of(main)?;
    /// println!("{} files changed", changes.paths.len());
    /// # Ok::<(), bpvm::vcs::Error>(())
    /// ```
    pub fn of(before: Revision) -> Result<Changes, vcs::Error> {
        Ok(Changes {
            top: before.top().to_path_buf(),
            paths: before.changed_files()?,
            before: Some(before),
        })
    }

    /// The files listed in `list` (see [`vcs::read_changed_files`]),
    /// relative to the top of the repository holding `dir`, or to the
    /// current folder when no repository holds it.
    pub fn listed(dir: &Path, list: &Path) -> Result<Changes, vcs::Error> {
        let paths = vcs::read_changed_files(list)?;
        let top = match vcs::top(dir) {
            Ok(top) => top,
            Err(vcs::Error::NotARepository { .. }) => {
                let here = std::env::current_dir().map_err(|e| vcs::Error::Io {
                    path: PathBuf::from("."),
                    error: e.to_string(),
                })?;
                here.canonicalize().unwrap_or(here)
            }
            Err(e) => return Err(e),
        };
        Ok(Changes {
            top,
            paths,
            before: None,
        })
    }

    /// Whether the revision had a file at `top_rel` or under it; `None`
    /// when there is no revision to ask.
    pub(super) fn had(&self, top_rel: &str) -> Option<bool> {
        self.before.as_ref().map(|b| b.has_under(top_rel))
    }

    /// `path` (absolute) relative to the top, `/`-separated; `None` when
    /// it is outside the repository.
    pub(super) fn in_repo(&self, path: &Path) -> Option<String> {
        path.strip_prefix(&self.top).ok().map(super::super::target::slashed)
    }
}
