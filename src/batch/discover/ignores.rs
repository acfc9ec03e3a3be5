//! `.gitignore` and `.ignore` files, read by bpvm under the rules every
//! file a template names is read under (a regular file, at most 64 MiB,
//! opened without blocking, inside its folder) and handed to the walker
//! as rules: the walker reading them itself would follow a link to
//! `/dev/zero` until memory ran out, or wait on a FIFO forever.
//!
//! The rules apply as Git and ripgrep apply them: the nearest folder's
//! file decides, `.ignore` before `.gitignore`, and `.gitignore` files
//! stop applying above the folder that holds `.git`. Folders above the
//! searched one count too (each read as a root of its own).

use super::problem::Problem;
use bpvm_runtime::root::Root;
use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The ignore files of one folder.
#[derive(Default)]
struct Rules {
    ignore: Option<Gitignore>,
    git: Option<Gitignore>,
    /// The folder holds `.git`: the top of a repository.
    repository: bool,
}

/// The ignore rules met while searching one folder, read as they are
/// needed, and the problems reading them met.
pub(super) struct Ignores {
    base: PathBuf,
    root: Root,
    /// The folders above the base, nearest first, with their rules.
    above: Vec<Rules>,
    /// Each folder under the base (relative to it) whose rules were read.
    folders: Mutex<HashMap<PathBuf, Arc<Rules>>>,
    problems: Mutex<Vec<Problem>>,
}

impl Ignores {
    /// The rules for a search of `base`, which `root` is the root of.
    pub(super) fn new(base: &Path, root: &Root) -> Ignores {
        let mut problems = Vec::new();
        let above = root
            .dir()
            .ancestors()
            .skip(1)
            .map(|dir| match Root::new(dir, "folder") {
                Ok(r) => rules(&r, r.dir(), &base.join(relative_up(root.dir(), dir)), &mut problems),
                Err(_) => Rules::default(),
            })
            .collect();
        Ignores {
            base: base.to_path_buf(),
            root: root.clone(),
            above,
            folders: Mutex::default(),
            problems: Mutex::new(problems),
        }
    }

    /// `true` when the rules ignore `path` (under the base, as the walker
    /// names it).
    pub(super) fn ignored(&self, path: &Path, is_dir: bool) -> bool {
        let Ok(rel) = path.strip_prefix(&self.base) else {
            return false;
        };
        let real = self.root.dir().join(rel);
        let (mut by_ignore, mut by_git, mut repository) = (Match::None, Match::None, false);
        let mut look = |rules: &Rules| {
            if by_ignore.is_none() {
                by_ignore = matched(rules.ignore.as_ref(), &real, is_dir);
            }
            if by_git.is_none() && !repository {
                by_git = matched(rules.git.as_ref(), &real, is_dir);
            }
            repository |= rules.repository;
        };
        for folder in rel.ancestors().skip(1) {
            look(&self.folder(folder));
        }
        for rules in &self.above {
            look(rules);
        }
        let decided = if by_ignore.is_none() { by_git } else { by_ignore };
        decided.is_ignore()
    }

    /// The problems met reading ignore files, taken.
    pub(super) fn take_problems(&self) -> Vec<Problem> {
        std::mem::take(&mut *self.problems.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The rules of the folder `rel` under the base, read once.
    fn folder(&self, rel: &Path) -> Arc<Rules> {
        if let Some(rules) = self.folders.lock().unwrap_or_else(PoisonError::into_inner).get(rel) {
            return Arc::clone(rules);
        }
        let mut problems = Vec::new();
        let read = Arc::new(rules(
            &self.root,
            &self.root.dir().join(rel),
            &self.base.join(rel),
            &mut problems,
        ));
        self.problems
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .append(&mut problems);
        let mut folders = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(folders.entry(rel.to_path_buf()).or_insert(read))
    }
}

/// `..` steps from `from` up to its ancestor `to`, for messages.
fn relative_up(from: &Path, to: &Path) -> PathBuf {
    let steps = from.components().count().saturating_sub(to.components().count());
    (0..steps).map(|_| "..").collect()
}

fn matched(rules: Option<&Gitignore>, path: &Path, is_dir: bool) -> Match<()> {
    match rules.map(|g| g.matched(path, is_dir)) {
        Some(Match::Ignore(_)) => Match::Ignore(()),
        Some(Match::Whitelist(_)) => Match::Whitelist(()),
        _ => Match::None,
    }
}

/// The ignore files of the folder `dir` (real, inside `root`), shown in
/// messages as `shown`.
fn rules(root: &Root, dir: &Path, shown: &Path, problems: &mut Vec<Problem>) -> Rules {
    Rules {
        ignore: file(root, dir, ".ignore", shown, problems),
        git: file(root, dir, ".gitignore", shown, problems),
        repository: dir.join(".git").exists(),
    }
}

/// The rules of `dir/name`: `None` when there is no such file, or when it
/// cannot be read under the root's rules (a problem then says so).
fn file(root: &Root, dir: &Path, name: &str, shown: &Path, problems: &mut Vec<Problem>) -> Option<Gitignore> {
    let shown = shown.join(name).display().to_string();
    let bytes = match root.read(dir, name) {
        Ok(bytes) => bytes,
        Err(e) if e.is_missing() => return None,
        Err(e) => {
            let message = format!("not read: {e}; its rules are not applied (make it a regular file or remove it)");
            problems.push(Problem::file(shown, message));
            return None;
        }
    };
    let mut builder = GitignoreBuilder::new(dir);
    for (i, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
        if let Err(e) = builder.add_line(None, line) {
            problems.push(Problem {
                line: u32::try_from(i + 1).unwrap_or(u32::MAX),
                col: 1,
                ..Problem::file(shown.clone(), format!("not a pattern, left out: {e}"))
            });
        }
    }
    match builder.build() {
        Ok(rules) => Some(rules),
        Err(e) => {
            problems.push(Problem::file(shown, format!("its rules are not applied: {e}")));
            None
        }
    }
}
