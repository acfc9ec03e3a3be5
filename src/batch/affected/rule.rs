//! The rule: whether one changed path affects a target, judged against
//! what the target's render depends on (its [`Basis`]).

use super::changes::Changes;
use crate::batch::manifest::{LeftOut, Read};
use crate::batch::why::{How, Why};
use std::path::{Path, PathBuf};

/// What a target is judged by: what its render read (paths relative to
/// its base, as a manifest has them, or absolute), and the paths at or
/// under which any change counts (what a render may read that a load
/// does not show).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Basis {
    pub read: Read,
    /// Relative to the base; `""` is all of it.
    pub within: Vec<String>,
    /// The Windsor project's folder, absolute (facet entries' files are
    /// relative to it).
    pub project: Option<PathBuf>,
}

/// A changed path: relative to the target's base (absolute when outside
/// it), and as the repository names it.
pub(super) struct Changed<'c> {
    pub rel: String,
    pub top: &'c str,
}

/// What is known of a changed path beyond its name.
pub(super) enum Known<'c> {
    /// It differs from a revision (or is listed as changed, with no
    /// revision: `changes.before` is `None`); `top` is the path as the
    /// repository names it.
    Repo { changes: &'c Changes, top: &'c str },
    /// It was saved in the work tree just now: `entry` when the path
    /// itself was created, removed or renamed (its folder's listing
    /// changed), not only written.
    Saved { entry: bool },
}

/// The first of `changed` that affects the target of `basis` (based at
/// `base`), and how.
pub(super) fn judge(basis: &Basis, base: &Path, changed: &[Changed<'_>], changes: &Changes) -> Option<Why> {
    changed.iter().find_map(|c| {
        let known = Known::Repo { changes, top: c.top };
        affects(basis, base, &c.rel, &known).map(|how| Why::new(c.top, how))
    })
}

/// How a change at `rel` (relative to `base`, or absolute) affects the
/// target of `basis`, or `None` when it does not.
pub(super) fn affects(basis: &Basis, base: &Path, rel: &str, known: &Known<'_>) -> Option<How> {
    let read = &basis.read;
    // A file read, or what a link it went through pointed to.
    if read.files.keys().any(|e| e == rel || under(e, rel)) {
        return Some(How::Read);
    }
    // A path looked at: what is there may be another kind now. A file
    // beneath it changes that only when something appears where nothing
    // was, or a folder is gone with its last file.
    let looked = read.paths.iter().any(|(e, kind)| {
        e == rel
            || under(e, rel)
            || (under(rel, e) && (kind == "missing" || std::fs::symlink_metadata(absolute(base, e)).is_err()))
    });
    if looked {
        return Some(How::Looked);
    }
    for folder in read.folders.keys() {
        if folder == rel || under(folder, rel) {
            return Some(How::Listed);
        }
        if under(rel, folder) && entry_came_or_went(base, folder, rel, known) {
            return Some(How::Listed);
        }
    }
    for (e, entry) in &read.facets_left_out {
        if under(e, rel) || (e == rel && condition_changed(basis, base, e, entry, known)) {
            return Some(How::FacetLeftOut);
        }
    }
    if basis.within.iter().any(|w| w == rel || under(rel, w)) {
        return Some(How::Within);
    }
    None
}

/// Whether `path` lies beneath the folder `folder` (both relative to the
/// base, or both absolute; `""` is the base).
pub(super) fn under(path: &str, folder: &str) -> bool {
    if folder.is_empty() {
        return !path.is_empty() && !path.starts_with('/');
    }
    path.len() > folder.len() && path.starts_with(folder) && path.as_bytes()[folder.len()] == b'/'
}

/// Whether the entry of the listed `folder` that the changed path `rel`
/// lies in was added or removed: it is there now and the revision had
/// nothing there, or the other way round. Without a revision, it may
/// have been. Saved just now: the change is that entry's, and it was
/// created, removed or renamed.
fn entry_came_or_went(base: &Path, folder: &str, rel: &str, known: &Known<'_>) -> bool {
    let rest = if folder.is_empty() {
        rel
    } else {
        &rel[folder.len() + 1..]
    };
    let name = rest.split('/').next().unwrap_or(rest);
    let below = rest.len() - name.len();
    let (changes, top) = match known {
        Known::Saved { entry } => return *entry && below == 0,
        Known::Repo { changes, top } => (changes, top),
    };
    let entry_rel = if folder.is_empty() {
        name.to_string()
    } else {
        format!("{folder}/{name}")
    };
    // The same entry as the repository names it: the changed path less
    // what lies beneath the entry.
    let entry_top = &top[..top.len() - below];
    let now = std::fs::symlink_metadata(absolute(base, &entry_rel)).is_ok();
    match changes.had(entry_top) {
        Some(then) => then != now,
        None => true,
    }
}

/// Whether what decides a left-out facet's part in the render differs
/// between the revision and now. Without a revision, or saved just now
/// (what it was before is not kept), it may.
fn condition_changed(basis: &Basis, base: &Path, rel: &str, entry: &LeftOut, known: &Known<'_>) -> bool {
    let Known::Repo { changes, top } = known else {
        return true;
    };
    let (Some(before), Some(project), Some(v09)) = (&changes.before, &basis.project, entry.v09()) else {
        return true;
    };
    let Ok(file) = absolute(base, rel)
        .strip_prefix(project)
        .map(crate::batch::target::slashed)
    else {
        return true;
    };
    match before.read(top) {
        Ok(Some(bytes)) => !LeftOut::of(&file, &bytes, v09).decides_as(entry),
        _ => true,
    }
}

/// A manifest path (relative to `base`, or absolute) as an absolute path.
pub(super) fn absolute(base: &Path, rel: &str) -> PathBuf {
    if rel.starts_with('/') {
        PathBuf::from(rel)
    } else {
        base.join(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::under;

    #[test]
    fn beneath_a_folder() {
        for (path, folder, yes) in [
            ("a/b", "a", true),
            ("a", "a", false),
            ("ab/c", "a", false),
            ("a/b/c", "a/b", true),
            ("a", "", true),
            ("/abs/x", "", false),
            ("/abs/x", "/abs", true),
        ] {
            assert_eq!(under(path, folder), yes, "{path} under {folder}");
        }
    }
}
