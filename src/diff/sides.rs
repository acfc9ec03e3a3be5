//! The two sides of a diff: a revision's files written into a temporary
//! folder (removed when the side is dropped, on every path), and the
//! work tree; each side's targets found as `bpvm batch` finds them.

use super::error::Error;
use crate::batch::{Kind, Search, Target, discover_with};
use crate::vcs;
use std::path::{Component, Path, PathBuf};

/// One PATH as a side holds it.
#[derive(Debug)]
struct Folder {
    /// The PATH as the user gave it, tidied (`""` for `.`): ids and
    /// messages show paths under it.
    given: String,
    /// Where its files are on this side.
    dir: PathBuf,
}

/// One side's folders: the work tree's, or a revision's written out.
#[derive(Debug)]
pub(crate) struct Side {
    /// Where its targets are, for messages: `at HEAD` (the revision as
    /// given), or `in the work tree`.
    pub place: String,
    folders: Vec<Folder>,
    /// The revision's files, when this side made their folder; removed
    /// when dropped.
    _scratch: Option<tempfile::TempDir>,
    /// A revision's side: its folders are not the PATHs themselves.
    revision: bool,
}

/// A target found on one side, with the id shown to users (its PATH
/// then its batch id).
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub shown: String,
    /// What it renders, as paths under the PATH given.
    pub source: String,
    pub target: Target,
}

impl Side {
    /// The work tree's side: the PATHs themselves.
    pub fn work_tree(paths: &[PathBuf]) -> Side {
        let folders = paths
            .iter()
            .map(|p| Folder {
                given: given(p),
                dir: p.clone(),
            })
            .collect();
        Side {
            place: "in the work tree".into(),
            folders,
            _scratch: None,
            revision: false,
        }
    }

    /// The side of `revision`: each PATH's files at it written
    /// into a folder of its own in `into` (the caller's), or in a new
    /// temporary folder removed when the side is dropped. A PATH that
    /// does not exist at `rev` is an empty folder (its targets are new).
    pub fn revision(revision: &vcs::Revision, paths: &[PathBuf], into: Option<&Path>) -> Result<Side, Error> {
        let (top, rev) = (revision.top(), revision.rev());
        let (scratch, base) = match into {
            Some(dir) => (None, dir.to_path_buf()),
            None => {
                let made = tempfile::Builder::new()
                    .prefix("bpvm-diff-")
                    .tempdir()
                    .map_err(|e| Error::Scratch(e.to_string()))?;
                let path = made.path().to_path_buf();
                (Some(made), path)
            }
        };
        let mut folders = Vec::with_capacity(paths.len());
        for (k, path) in paths.iter().enumerate() {
            let subdir = inside(top, path)?;
            let dir = base.join(k.to_string());
            match revision.tree_at(&subdir, &dir) {
                Ok(_) => {}
                // The folder is new in the work tree.
                Err(vcs::Error::Refused { path, .. }) if path == subdir && !subdir.is_empty() => {
                    std::fs::create_dir_all(&dir).map_err(|e| Error::Scratch(e.to_string()))?;
                }
                Err(e) => return Err(e.into()),
            }
            folders.push(Folder {
                given: given(path),
                dir,
            });
        }
        Ok(Side {
            place: format!("at {rev}"),
            folders,
            _scratch: scratch,
            revision: true,
        })
    }

    /// The side's targets, found as `bpvm batch` finds them (under each
    /// folder, `exclude` left out), then chosen by `select`; each with
    /// the id shown. A folder missing on this side has no targets.
    pub fn targets(
        &self,
        exclude: &[String],
        select: &dyn Fn(&[Target]) -> Vec<Target>,
    ) -> Result<(Vec<Found>, Vec<String>), Error> {
        let dirs: Vec<&Path> = self
            .folders
            .iter()
            .map(|f| f.dir.as_path())
            .filter(|d| d.exists())
            .collect();
        let search = Search {
            exclude: exclude.to_vec(),
            ..Search::default()
        };
        let found = discover_with(&dirs, &search);
        if !found.problems.is_empty() {
            return Err(Error::Discovery {
                place: self.place.clone(),
                problems: found.problems.iter().map(|p| self.shown(&p.to_string())).collect(),
            });
        }
        let warnings = found.warnings.iter().map(|w| self.shown(w)).collect();
        let targets = select(&found.targets)
            .into_iter()
            .map(|target| Found {
                shown: self.shown_id(&target),
                source: self.source(&target),
                target,
            })
            .collect();
        Ok((targets, warnings))
    }

    /// `text` (a message of a render on this side) with the revision's
    /// temporary folders named as the PATHs they stand for, and without
    /// a leading `./` (the same file is named alike at both sides).
    pub fn shown(&self, text: &str) -> String {
        let mut out = text.to_string();
        if self.revision {
            out = self.unscratched(out);
        }
        out.split_inclusive('\n')
            .map(|line| line.strip_prefix("./").unwrap_or(line))
            .collect()
    }

    /// `text` with the revision's temporary folders named as the PATHs
    /// they stand for.
    fn unscratched(&self, mut out: String) -> String {
        // Longest first: folder `1` must not take the start of `10`.
        let mut folders: Vec<&Folder> = self.folders.iter().collect();
        folders.sort_by_key(|f| std::cmp::Reverse(f.dir.as_os_str().len()));
        for f in folders {
            let dir = f.dir.display().to_string();
            let given = if f.given.is_empty() { "." } else { &f.given };
            let under = if f.given.is_empty() {
                String::new()
            } else {
                format!("{}/", f.given)
            };
            out = out.replace(&format!("{dir}/"), &under).replace(&dir, given);
        }
        out
    }

    /// A target's id as users know it: its PATH, then its batch id.
    fn shown_id(&self, target: &Target) -> String {
        under(self.given(target), &target.id)
    }

    /// What a target renders, as `bpvm batch` names it but under the
    /// PATH given: `platform/aws (context prod)`, `apps/api.yaml
    /// (variables apps/api.eu.vars.yaml)`.
    fn source(&self, target: &Target) -> String {
        let given = self.given(target);
        let template = match under(given, &target.template_path()) {
            t if t.is_empty() => ".".to_string(),
            t => t,
        };
        match &target.kind {
            Kind::Windsor { context } => format!("{template} (context {context})"),
            Kind::Bluelink { files, .. } => match &files.vars {
                Some(vars) => {
                    let rel = vars.strip_prefix(&target.base).unwrap_or(vars);
                    format!("{template} (variables {})", under(given, &tidy(rel)))
                }
                None => template,
            },
        }
    }

    /// The PATH given that `target` was found under.
    fn given(&self, target: &Target) -> &str {
        self.folders
            .iter()
            .find(|f| f.dir == target.base)
            .map_or("", |f| f.given.as_str())
    }
}

/// `rel` under the PATH `given` (`""` for `.`).
fn under(given: &str, rel: &str) -> String {
    match (given.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => given.to_string(),
        (false, false) => format!("{given}/{rel}"),
    }
}

/// `path` relative to the work tree's top, `/`-separated (`""` for the
/// top itself); an error when it lies outside.
fn inside(top: &Path, path: &Path) -> Result<String, Error> {
    let outside = || Error::Outside {
        path: path.display().to_string(),
        top: top.display().to_string(),
    };
    let top = top.canonicalize().map_err(|_| outside())?;
    let abs = match path.canonicalize() {
        Ok(p) => p,
        // Not in the work tree (any more): where it would be.
        Err(_) => {
            let cwd = std::env::current_dir()
                .and_then(|d| d.canonicalize())
                .map_err(|_| outside())?;
            lexical(&cwd.join(path))
        }
    };
    let rel = abs.strip_prefix(&top).map_err(|_| outside())?;
    Ok(tidy(rel))
}

/// A PATH as ids show it: relative to the current folder when it lies
/// there (an absolute PATH too), as given otherwise.
fn given(path: &Path) -> String {
    let here = std::env::current_dir().ok();
    match here.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rel) if path.is_absolute() => tidy(rel),
        _ => tidy(path),
    }
}

/// `path` with `.` and `..` steps worked out by name.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A path as ids show it: `/`-separated, without `.` steps or a
/// trailing separator; `""` for `.`.
fn tidy(path: &Path) -> String {
    let parts: Vec<String> = path
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .map(|c| match c {
            Component::RootDir => String::new(),
            other => other.as_os_str().to_string_lossy().into_owned(),
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_tidied_as_ids_show_them() {
        for (given, shown) in [
            (".", ""),
            ("./platform/", "platform"),
            ("a/./b", "a/b"),
            ("/abs/x", "/abs/x"),
        ] {
            assert_eq!(tidy(Path::new(given)), shown, "{given}");
        }
        assert_eq!(lexical(Path::new("/a/b/../c/./d")), Path::new("/a/c/d"));
    }

    #[test]
    fn messages_name_the_path_not_the_temporary_folder() {
        let side = Side {
            place: "at HEAD".into(),
            folders: vec![
                Folder {
                    given: String::new(),
                    dir: "/tmp/bpvm-diff-x/0".into(),
                },
                Folder {
                    given: "platform".into(),
                    dir: "/tmp/bpvm-diff-x/1".into(),
                },
            ],
            _scratch: None,
            revision: true,
        };
        assert_eq!(
            side.shown(
                "/tmp/bpvm-diff-x/0/api.yaml:3:5: error: x; /tmp/bpvm-diff-x/1/aws/windsor.yaml; /tmp/bpvm-diff-x/1"
            ),
            "api.yaml:3:5: error: x; platform/aws/windsor.yaml; platform"
        );
    }
}
