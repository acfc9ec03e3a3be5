//! The work tree's files as git sees them: those the index tracks, and
//! those it does not that no ignore rule covers.

use super::error::{Error, git, io};
use gix::bstr::ByteSlice;
use gix::index::entry::Mode;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How deep folders are searched: deeper is refused, so that a folder
/// chain made to exhaust memory ends.
///
/// ```
/// assert_eq!(bpvm::vcs::FOLDER_DEPTH, 256);
/// ```
pub const FOLDER_DEPTH: usize = 256;

/// The top folder of the work tree of the git repository holding `dir`
/// (searched upward, as git does), absolute and with links resolved:
/// what paths in a revision are relative to.
///
/// # Errors
///
/// [`Error::NotARepository`], [`Error::NoWorkTree`] for a bare repository.
///
/// ```no_run
/// let top = bpvm::vcs::top(std::path::Path::new("platform"))?;
/// assert!(top.join(".git").exists());
/// # Ok::<(), bpvm::vcs::Error>(())
/// ```
pub fn top(dir: &Path) -> Result<PathBuf, Error> {
    work_tree(&super::revision::open(dir)?)
}

/// [`top`] of an open repository.
pub(crate) fn work_tree(repo: &gix::Repository) -> Result<PathBuf, Error> {
    let top = repo.workdir().ok_or_else(|| Error::NoWorkTree {
        git_dir: repo.git_dir().to_path_buf(),
    })?;
    // gix may give the top relative to the current folder, `""` for it
    // (a linked work tree).
    let top = if top.as_os_str().is_empty() {
        Path::new(".")
    } else {
        top
    };
    match top.canonicalize() {
        Ok(real) => Ok(real),
        Err(_) => std::path::absolute(top).map_err(|e| io(top, &e)),
    }
}

/// The paths (relative to `top`, `/`-separated) of the files the index
/// tracks (present or not) and of the untracked files not ignored by
/// `.gitignore`, `.git/info/exclude` or the global excludes file. Nested
/// repositories and submodules are passed over, as git does.
pub(crate) fn files(repo: &gix::Repository, top: &Path) -> Result<BTreeSet<String>, Error> {
    let index = repo.index_or_empty().map_err(git)?;
    let mut files: BTreeSet<String> = index
        .entries()
        .iter()
        .filter(|e| e.mode != Mode::COMMIT)
        .map(|e| e.path(&index).to_str_lossy().into_owned())
        .collect();
    let source = gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped;
    let mut excludes = repo.excludes(&index, None, source).map_err(git)?;
    let mut folders: Vec<(PathBuf, String, usize)> = vec![(top.to_path_buf(), String::new(), 0)];
    while let Some((dir, rel, depth)) = folders.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| io(&dir, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io(&dir, &e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == ".git" {
                continue;
            }
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            let kind = entry.file_type().map_err(|e| io(entry.path(), &e))?;
            let mode = if kind.is_dir() { Mode::DIR } else { Mode::FILE };
            let ignored = excludes
                .at_entry(path.as_str(), Some(mode))
                .map_err(|e| io(entry.path(), &e))?
                .is_excluded();
            if ignored {
                continue;
            }
            if !kind.is_dir() {
                files.insert(path);
            } else if !entry.path().join(".git").exists() {
                if depth + 1 > FOLDER_DEPTH {
                    return Err(Error::Refused {
                        path,
                        why: format!("folders nested deeper than {FOLDER_DEPTH} are not searched"),
                    });
                }
                folders.push((entry.path(), path, depth + 1));
            }
        }
    }
    Ok(files)
}
