//! Finding the targets under a folder: Windsor projects and Bluelink
//! blueprints discovered by their layout, or listed in `bpvm-batch.yaml`.
//!
//! `problem` is a leaf; `layout` tells files by name; `sniff` tells a
//! blueprint by its version; `siblings` finds a blueprint's variable sets
//! and data; `walk` searches a folder and `manifest` reads a
//! `bpvm-batch.yaml` with them. This module only gathers what they find:
//! none of them imports it.

mod ignores;
mod layout;
mod manifest;
mod problem;
mod siblings;
mod sniff;
mod walk;

pub(crate) use layout::is_project;
pub use layout::{MANIFEST, SKIPPED};
pub use problem::{Problem, what_is};

use super::target::{Kind, Target};
use bpvm_runtime::Problems;
use bpvm_runtime::root::Root;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What was found under the folders searched: the targets, and every
/// problem met on the way (a file that could not be read, a mistake in a
/// `bpvm-batch.yaml`, two targets with one id).
///
/// Discovery goes on past a problem, so one run reports them all; the
/// targets are those it could still tell.
///
/// ```
/// use bpvm::batch::discover;
/// let found = discover(&["/no/such/folder"]);
/// assert!(found.targets.is_empty());
/// assert_eq!(found.problems.len(), 1);
/// assert!(found.into_result().is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovery {
    /// The targets: each folder's, sorted by id, folders in the order given.
    pub targets: Vec<Target>,
    /// What went wrong, in the order met.
    pub problems: Vec<Problem>,
    /// Every Windsor project found, whether or not it has contexts (a
    /// template repository may have none: nothing to render, but a
    /// template to check), in the order found.
    pub projects: Vec<PathBuf>,
}

impl Discovery {
    /// The targets, or every problem when there was any.
    ///
    /// ```
    /// use bpvm::batch::Discovery;
    /// assert_eq!(Discovery::default().into_result().unwrap(), vec![]);
    /// ```
    pub fn into_result(self) -> Result<Vec<Target>, Problems<Problem>> {
        if self.problems.is_empty() {
            Ok(self.targets)
        } else {
            Err(Problems::new(self.problems))
        }
    }
}

/// The targets under each of `paths` (see the [module
/// documentation](super) for the rules), each folder's sorted by id, the
/// folders in the order given. A target id given twice is a problem; the
/// first is kept.
///
/// ```
/// use bpvm::batch::discover;
/// let dir = std::env::temp_dir().join(format!("bpvm-discover-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("infra/contexts/_template")).unwrap();
/// std::fs::create_dir_all(dir.join("infra/contexts/prod")).unwrap();
/// std::fs::write(dir.join("infra/windsor.yaml"), "").unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2025-11-02\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("api.eu.vars.yaml"), "region: eu-west-1\n").unwrap();
/// let found = discover(&[&dir]);
/// let ids: Vec<&str> = found.targets.iter().map(|t| t.id.as_str()).collect();
/// assert_eq!(ids, ["api@eu", "infra/prod"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn discover(paths: &[impl AsRef<Path>]) -> Discovery {
    discover_except(paths, &[] as &[&Path])
}

/// [`discover`], not searching the folders `except` (a batch's output
/// folder, whose rendered blueprints are not templates).
///
/// ```
/// use bpvm::batch::discover_except;
/// let dir = std::env::temp_dir().join(format!("bpvm-except-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("out")).unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("out/api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// let ids = |found: bpvm::batch::Discovery| found.targets.into_iter().map(|t| t.id).collect::<Vec<_>>();
/// assert_eq!(ids(discover_except(&[&dir], &[dir.join("out")])), ["api"]);
/// assert_eq!(ids(discover_except(&[&dir], &[] as &[&std::path::Path])), ["api", "out/api"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn discover_except(paths: &[impl AsRef<Path>], except: &[impl AsRef<Path>]) -> Discovery {
    // Compared by where they are, however they are named; a folder that
    // does not exist yet holds nothing to skip.
    let except: Arc<Vec<PathBuf>> = Arc::new(except.iter().filter_map(|p| p.as_ref().canonicalize().ok()).collect());
    let mut found = Discovery::default();
    for path in paths {
        let (mut targets, mut problems) = discover_in(path.as_ref(), &except, &mut found.projects);
        targets.sort_by(|a, b| a.id.cmp(&b.id));
        found.targets.append(&mut targets);
        found.problems.append(&mut problems);
    }
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut kept = Vec::with_capacity(found.targets.len());
    for t in std::mem::take(&mut found.targets) {
        match first.get(&t.id) {
            Some(&i) => {
                let earlier: &Target = &kept[i];
                let message = format!(
                    "target {:?} is given by both {} and {}; only the first is kept",
                    t.id,
                    describe(earlier),
                    describe(&t)
                );
                found
                    .problems
                    .push(Problem::file(t.template.display().to_string(), message));
            }
            None => {
                first.insert(t.id.clone(), kept.len());
                kept.push(t);
            }
        }
    }
    found.targets = kept;
    found
}

/// A target's template and what picks it out, for messages.
fn describe(t: &Target) -> String {
    match &t.kind {
        Kind::Windsor { context } => format!("{} (context {context})", t.template.display()),
        Kind::Bluelink { files, .. } => match &files.vars {
            Some(vars) => format!("{} (variables {})", t.template.display(), vars.display()),
            None => t.template.display().to_string(),
        },
    }
}

/// The targets under one folder, unsorted, and the problems met.
fn discover_in(base: &Path, except: &Arc<Vec<PathBuf>>, projects: &mut Vec<PathBuf>) -> (Vec<Target>, Vec<Problem>) {
    let mut problems = Vec::new();
    let shown = base.display().to_string();
    // Root::new opens the folder (O_DIRECTORY), so what is not one fails
    // there: name it.
    let root = match Root::new(base, "batch folder") {
        Ok(root) => root,
        Err(e) if !base.exists() || base.is_dir() => {
            return (Vec::new(), vec![Problem::file(shown, format!("cannot search: {e}"))]);
        }
        _ => {
            let why = format!("is {}, not a folder to search", problem::what_is(base));
            return (Vec::new(), vec![Problem::file(shown, why)]);
        }
    };
    let targets = if base.join(MANIFEST).exists() {
        manifest::read(&root, base, &mut problems)
    } else if is_project(base) {
        projects.push(base.to_path_buf());
        layout::project_targets(base, "", &mut problems)
    } else {
        walk::walk(&root, base, except, &mut problems, projects)
    };
    (targets, problems)
}
