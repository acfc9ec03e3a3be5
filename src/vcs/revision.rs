//! Opening the repository that holds a folder, and a revision of it read
//! as git reads it.

use super::error::{Error, git};
use gix::bstr::ByteSlice;
use std::path::Path;

/// The repository holding `dir` (searched upward, as git does).
pub(crate) fn open(dir: &Path) -> Result<gix::Repository, Error> {
    use gix::discover::upwards::Error as Upwards;
    gix::discover(dir).map_err(|e| match e {
        gix::discover::Error::Discover(
            Upwards::NoGitRepository { .. }
            | Upwards::NoGitRepositoryWithinCeiling { .. }
            | Upwards::NoGitRepositoryWithinFs { .. },
        ) => Error::NotARepository { dir: dir.to_path_buf() },
        gix::discover::Error::Discover(Upwards::InaccessibleDirectory { .. }) => Error::Io {
            path: dir.to_path_buf(),
            error: "not a folder, or it cannot be read".into(),
        },
        other => git(other),
    })
}

/// The tree `rev` names: `HEAD`, `HEAD~1`, a branch, a tag,
/// `origin/main`, a full or short hash, `A...B` (the merge base of A
/// and B), or anything else git's revision syntax gives one object of.
pub(crate) fn tree<'r>(repo: &'r gix::Repository, rev: &str) -> Result<gix::Tree<'r>, Error> {
    let id = resolve(repo, rev)?;
    let object = repo.find_object(id).map_err(|_| missing(repo, rev))?;
    object.peel_to_tree().map_err(|e| match repo.is_shallow() {
        true => Error::Shallow { rev: rev.to_string() },
        false => git(e),
    })
}

/// The one object `rev` names.
fn resolve(repo: &gix::Repository, rev: &str) -> Result<gix::ObjectId, Error> {
    let spec = repo
        .rev_parse(rev.as_bytes().as_bstr())
        .map_err(|_| missing(repo, rev))?;
    match spec.detach() {
        gix::revision::plumbing::Spec::Include(id) => Ok(id),
        gix::revision::plumbing::Spec::Merge { theirs, ours } => match repo.merge_base(theirs, ours) {
            Ok(base) => Ok(base.detach()),
            Err(_) if repo.is_shallow() => Err(Error::Shallow { rev: rev.to_string() }),
            Err(e) => Err(git(e)),
        },
        _ => Err(Error::NotOneRevision { rev: rev.to_string() }),
    }
}

/// Why `rev` names nothing: a misspelt branch or tag, history a shallow
/// clone lacks, or no such thing.
fn missing(repo: &gix::Repository, rev: &str) -> Error {
    let names = ref_names(repo);
    let known: Vec<&str> = names.iter().map(String::as_str).collect();
    // The name part of `main~2` or `v1.0^{tree}` is what may be misspelt.
    let name = rev.split(['~', '^', ':', '@']).next().unwrap_or(rev);
    let suggestion = bpvm_runtime::suggest::closest(name, &known)
        .filter(|s| *s != name)
        .map(str::to_string);
    if suggestion.is_none() && repo.is_shallow() {
        return Error::Shallow { rev: rev.to_string() };
    }
    Error::UnknownRevision {
        rev: rev.to_string(),
        suggestion,
    }
}

/// The short names of the repository's branches (local and remote) and
/// tags.
fn ref_names(repo: &gix::Repository) -> Vec<String> {
    let Ok(refs) = repo.references() else {
        return Vec::new();
    };
    let kinds = [refs.local_branches(), refs.remote_branches(), refs.tags()];
    kinds
        .into_iter()
        .flatten()
        .flatten()
        .flatten()
        .map(|r| r.name().shorten().to_string())
        .collect()
}
