//! The files that differ between a revision and the work tree, compared
//! by content: each work tree file hashed as git hashes a blob.

use super::error::{Error, git, io};
use super::worktree;
use gix::hash::ObjectId;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The paths, relative to the top of the repository holding `repo_dir`
/// and `/`-separated, of the files that differ between the revision
/// `rev` and the work tree: modified, added, deleted, and both names of
/// a renamed file. Untracked files count as added unless an ignore rule
/// covers them; ignored files do not count. Files are compared by
/// content (the blob hash of what is on disk against the revision's),
/// never by time; a link by what it points to. Git's clean filters
/// (line endings, LFS) are not applied, and submodules are not compared.
///
/// `rev` is read as git reads it: `HEAD`, `HEAD~1`, a branch, a tag,
/// `origin/main`, a full or short hash, and `A...B` for the merge base
/// of A and B (what a pull request changes: `origin/main...HEAD`).
///
/// # Errors
///
/// [`Error::NotARepository`], [`Error::UnknownRevision`] (with the
/// closest branch or tag name), [`Error::Shallow`] when a shallow clone
/// lacks the revision, [`Error::NoWorkTree`], [`Error::Io`].
///
/// ```no_run
/// let changed = bpvm::vcs::changed_files(std::path::Path::new("."), "origin/main...HEAD")?;
/// for path in &changed {
///     println!("{path}");
/// }
/// # Ok::<(), bpvm::vcs::Error>(())
/// ```
pub fn changed_files(repo_dir: &Path, rev: &str) -> Result<BTreeSet<String>, Error> {
    super::Revision::open(repo_dir, rev)?.changed_files()
}

/// A file's blob: its id, and whether it is a link.
pub(super) type Blob = (ObjectId, bool);

/// [`changed_files`] of the revision whose files (by path) are `then`,
/// in the open `repo` whose work tree's top is `top`.
pub(super) fn changed_since(
    repo: &gix::Repository,
    top: &Path,
    then: &BTreeMap<String, Blob>,
) -> Result<BTreeSet<String>, Error> {
    let now = worktree::files(repo, top)?;
    let mut changed: BTreeSet<String> = then.keys().filter(|p| !now.contains(*p)).cloned().collect();
    for path in now {
        let before = then.get(&path);
        if hashed(repo, &top.join(&path), before)? != before.copied() {
            changed.insert(path);
        }
    }
    Ok(changed)
}

/// The blob `file` on disk would be, or `None` when it is missing or a
/// folder. A file whose size differs from `before`'s is not read: it
/// differs (and its id is given as the null id).
fn hashed(repo: &gix::Repository, file: &Path, before: Option<&Blob>) -> Result<Option<Blob>, Error> {
    let kind = repo.object_hash();
    let meta = match std::fs::symlink_metadata(file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(file, &e)),
    };
    let blob = |data: &[u8]| gix::objs::compute_hash(kind, gix::objs::Kind::Blob, data).map_err(git);
    if meta.is_symlink() {
        let target = std::fs::read_link(file).map_err(|e| io(file, &e))?;
        return Ok(Some((blob(link_bytes(&target).as_bytes())?, true)));
    }
    if meta.is_dir() {
        return Ok(None);
    }
    if let Some((id, false)) = before {
        let size = repo.find_header(*id).map_err(git)?.size();
        if size != meta.len() {
            return Ok(Some((ObjectId::null(kind), false)));
        }
    }
    let mut reader = std::fs::File::open(file).map_err(|e| io(file, &e))?;
    let id = gix::objs::compute_stream_hash(
        kind,
        gix::objs::Kind::Blob,
        &mut reader,
        meta.len(),
        &mut gix::features::progress::Discard,
        &std::sync::atomic::AtomicBool::new(false),
    )
    .map_err(|e| io(file, &std::io::Error::other(e.to_string())))?;
    Ok(Some((id, false)))
}

/// A link's target as git stores it: `/`-separated text.
fn link_bytes(target: &Path) -> String {
    target.to_string_lossy().replace('\\', "/")
}
