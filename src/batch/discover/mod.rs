//! Finding the targets under a folder: Windsor projects and Bluelink
//! blueprints discovered by their layout, or listed in `bpvm-batch.yaml`.
//!
//! `problem` is a leaf; `layout` tells files by name; `sniff` tells a
//! blueprint by its version (and rendered output by its first line);
//! `siblings` finds a blueprint's variable sets and data; `exclude`
//! matches exclusion globs; `walk` searches a folder and `manifest` reads
//! a `bpvm-batch.yaml` with them. This module only gathers what they find:
//! none of them imports it.

mod exclude;
mod ignores;
mod layout;
mod manifest;
mod problem;
pub(crate) mod shape;
mod siblings;
mod sniff;
mod walk;

pub use exclude::parse_exclude;
pub(crate) use exclude::path_glob;
pub(crate) use layout::is_project;
pub use layout::{MANIFEST, SKIPPED};
pub use problem::{Problem, what_is};
pub use siblings::files_beside;
pub(crate) use sniff::every_include;

use super::target::{Kind, Target};
use bpvm_runtime::Problems;
use bpvm_runtime::root::Root;
use exclude::Exclude;
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
    /// What deserves a look but stops nothing: an `exclude` glob of a
    /// `bpvm-batch.yaml` that matched nothing (a mistyped one would
    /// exclude nothing, silently), with its place.
    pub warnings: Vec<String>,
    /// The `--exclude` globs ([`Search::exclude`]) that matched nothing
    /// under any folder searched ([`unmatched_exclude`] says so).
    pub unmatched: Vec<String>,
}

/// The warning for the `--exclude` glob `glob`, which matched nothing
/// under any of `paths`.
///
/// ```
/// assert_eq!(
///     bpvm::batch::unmatched_exclude("rendred/**", &["."]),
///     "--exclude \"rendred/**\" matches nothing under . (a mistyped exclusion would exclude nothing)"
/// );
/// ```
pub fn unmatched_exclude(glob: &str, paths: &[impl AsRef<Path>]) -> String {
    let under: Vec<String> = paths.iter().map(|p| p.as_ref().display().to_string()).collect();
    format!(
        "--exclude {glob:?} matches nothing under {} (a mistyped exclusion would exclude nothing)",
        under.join(", ")
    )
}

/// How folders are searched, beyond the rules every search follows.
///
/// ```
/// use bpvm::batch::{Search, discover_with};
/// let dir = std::env::temp_dir().join(format!("bpvm-search-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("legacy")).unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("legacy/old.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// let search = Search { exclude: vec!["legacy".into(), "nothing/**".into()], ..Search::default() };
/// let found = discover_with(&[&dir], &search);
/// let ids: Vec<&str> = found.targets.iter().map(|t| t.id.as_str()).collect();
/// assert_eq!(ids, ["api"]);
/// assert_eq!(found.unmatched, ["nothing/**"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    /// Folders not searched, however they are named (a batch's output
    /// folder, whose rendered blueprints are not templates).
    pub except: Vec<PathBuf>,
    /// Globs of files and folders not searched (`--exclude`), each a path
    /// relative to every folder searched (see [`parse_exclude`]).
    pub exclude: Vec<String>,
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
    let except = except.iter().map(|p| p.as_ref().to_path_buf()).collect();
    discover_with(
        paths,
        &Search {
            except,
            exclude: Vec::new(),
        },
    )
}

/// [`discover`], searching as `search` says: an exclusion glob that does
/// not parse is a problem; one that matched nothing under any of `paths`
/// is in [`Discovery::unmatched`].
///
/// ```
/// use bpvm::batch::{Search, discover_with};
/// let search = Search { exclude: vec!["bluelink/**".into(), "[".into()], ..Search::default() };
/// let found = discover_with(&["examples"], &search);
/// assert!(found.targets.iter().all(|t| t.language() == "windsor"));
/// assert_eq!(found.problems[0].to_string(), "--exclude: \"[\" is not a glob: unclosed character class; missing ']'");
/// ```
pub fn discover_with(paths: &[impl AsRef<Path>], search: &Search) -> Discovery {
    let mut found = Discovery::default();
    // Compared by where they are, however they are named; a folder that
    // does not exist yet holds nothing to skip.
    let except: Arc<Vec<PathBuf>> = Arc::new(search.except.iter().filter_map(|p| p.canonicalize().ok()).collect());
    let mut given = Exclude::default();
    for glob in &search.exclude {
        if let Err(e) = given.add(glob, None) {
            found.problems.push(Problem::file("--exclude", e));
        }
    }
    let given = Arc::new(given);
    for path in paths {
        let (mut targets, mut problems) = discover_in(path.as_ref(), &except, &given, &mut found);
        targets.sort_by(|a, b| a.id.cmp(&b.id));
        found.targets.append(&mut targets);
        found.problems.append(&mut problems);
    }
    found.unmatched = given.unused().0;
    deduplicate(&mut found);
    found
}

/// Keeps the first target of each id; each later one is a problem.
fn deduplicate(found: &mut Discovery) {
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

/// The targets under one folder, unsorted, and the problems met; the
/// projects found and warnings go to `found`.
fn discover_in(
    base: &Path,
    except: &Arc<Vec<PathBuf>>,
    given: &Arc<Exclude>,
    found: &mut Discovery,
) -> (Vec<Target>, Vec<Problem>) {
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
    let mut excludes = vec![Arc::clone(given)];
    let targets = if base.join(MANIFEST).exists() {
        let listed = manifest::read(&root, base, &mut problems);
        let own = Arc::new(listed.exclude);
        excludes.push(Arc::clone(&own));
        let targets = match listed.targets {
            Some(targets) => targets.into_iter().filter(|t| !excluded(t, &excludes)).collect(),
            None => walk::walk(&root, base, except, &excludes, &mut problems, &mut found.projects),
        };
        found.warnings.extend(own.unused().1.iter().map(Problem::to_string));
        targets
    } else if is_project(base) {
        found.projects.push(base.to_path_buf());
        layout::project_targets(base, "", &mut problems)
    } else {
        walk::walk(&root, base, except, &excludes, &mut problems, &mut found.projects)
    };
    (targets, problems)
}

/// `true` when an exclusion glob matches the template of `t`, a target
/// a `bpvm-batch.yaml` lists, or a folder above it.
fn excluded(t: &Target, excludes: &[Arc<Exclude>]) -> bool {
    let rel = t.template_path();
    let is_dir = matches!(t.kind, Kind::Windsor { .. });
    excludes
        .iter()
        .fold(false, |hit, e| e.matches_within(&rel, is_dir) | hit)
}
