//! A revision's files, opened once: which paths it has and what they
//! held, to tell an added file from an edited one and to read a file as
//! it was; which files the work tree changed since; and the files
//! written out. One repository opened serves all of these.

use super::changed::{Blob, changed_since};
use super::error::{Error, git};
use super::revision;
use super::tree::{Written, write_tree};
use super::worktree::work_tree;
use gix::bstr::ByteSlice;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The files of one revision of the repository holding a folder.
///
/// ```no_run
/// let before = bpvm::vcs::Revision::open(std::path::Path::new("."), "origin/main")?;
/// assert!(before.has_under("src"));
/// let text = before.read("README.md")?;
/// let changed = before.changed_files()?;
/// before.tree_at("platform", &std::env::temp_dir().join("bpvm-main"))?;
/// # Ok::<(), bpvm::vcs::Error>(())
/// ```
pub struct Revision {
    repo: gix::Repository,
    top: PathBuf,
    /// The revision as given.
    rev: String,
    /// Its root tree.
    tree: gix::ObjectId,
    /// Every file and link, by path relative to the top: its blob.
    files: BTreeMap<String, Blob>,
}

impl Revision {
    /// The revision `rev` (read as [`changed_files`](super::changed_files)
    /// reads it) of the repository holding `repo_dir`.
    pub fn open(repo_dir: &Path, rev: &str) -> Result<Revision, Error> {
        let repo = revision::open(repo_dir)?;
        let top = work_tree(&repo)?;
        let tree = revision::tree(&repo, rev)?;
        let entries = tree.traverse().breadthfirst.files().map_err(git)?;
        let files = entries
            .into_iter()
            .filter(|e| e.mode.is_blob_or_symlink())
            .map(|e| (e.filepath.to_str_lossy().into_owned(), (e.oid, e.mode.is_link())))
            .collect();
        let tree_id = tree.id;
        drop(tree);
        Ok(Revision {
            repo,
            top,
            rev: rev.to_string(),
            tree: tree_id,
            files,
        })
    }

    /// The revision as it was given to [`Revision::open`].
    pub fn rev(&self) -> &str {
        &self.rev
    }

    /// The files that differ between the revision and the work tree, as
    /// [`changed_files`](super::changed_files) gives them.
    pub fn changed_files(&self) -> Result<BTreeSet<String>, Error> {
        changed_since(&self.repo, &self.top, &self.files)
    }

    /// The revision's files under `subdir` written into `into`, as
    /// [`tree_at`](super::tree_at) writes them.
    pub fn tree_at(&self, subdir: &str, into: &Path) -> Result<Written, Error> {
        let root = self.repo.find_tree(self.tree).map_err(git)?;
        write_tree(&self.repo, root, &self.rev, subdir, into)
    }

    /// The top of the repository's work tree, with links resolved.
    pub fn top(&self) -> &Path {
        &self.top
    }

    /// Whether the revision has a file at `path` or beneath it (`path`
    /// relative to the top, `/`-separated; `""` for the top).
    pub fn has_under(&self, path: &str) -> bool {
        if path.is_empty() {
            return !self.files.is_empty();
        }
        if self.files.contains_key(path) {
            return true;
        }
        let folder = format!("{path}/");
        self.files
            .range(folder.clone()..)
            .next()
            .is_some_and(|(p, _)| p.starts_with(&folder))
    }

    /// The bytes of the file (or a link's target) at `path` in the
    /// revision; `None` when it has none there.
    pub fn read(&self, path: &str) -> Result<Option<Vec<u8>>, Error> {
        let Some((id, _)) = self.files.get(path) else {
            return Ok(None);
        };
        let blob = self.repo.find_blob(*id).map_err(git)?;
        Ok(Some(blob.data.to_vec()))
    }
}
