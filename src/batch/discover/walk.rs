//! Discovery proper: the folders under a base searched for Windsor
//! projects and Bluelink blueprints.

use super::exclude::Exclude;
use super::ignores::Ignores;
use super::layout::{Role, SKIPPED, extension, is_project, project_targets, role};
use super::problem::Problem;
use super::siblings::Siblings;
use super::sniff::sniff;
use crate::batch::rendered::RENDERED_FOLDER;
use crate::batch::target::{Target, join, slashed};
use bpvm_runtime::root::{Refusal, Root};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// Discovery proper: every Windsor project and Bluelink blueprint under
/// `base` that `.gitignore` does not hide and no glob of `excludes`
/// matches.
pub(super) fn walk(
    root: &Root,
    base: &Path,
    except: &Arc<Vec<PathBuf>>,
    excludes: &[Arc<Exclude>],
    problems: &mut Vec<Problem>,
    found_projects: &mut Vec<PathBuf>,
) -> Vec<Target> {
    let projects: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
    let ignores = Arc::new(Ignores::new(base, root));
    let skip = Skip {
        base: base.to_path_buf(),
        except: Arc::clone(except),
        excludes: excludes.iter().filter(|e| !e.is_empty()).cloned().collect(),
    };
    let walk = walker(base, skip, Arc::clone(&ignores), Arc::clone(&projects));
    let folders = files_by_folder(walk, base, problems);
    problems.extend(ignores.take_problems());
    let mut targets = Vec::new();
    let projects = std::mem::take(&mut *projects.lock().unwrap_or_else(PoisonError::into_inner));
    for dir in projects {
        let rel = slashed(dir.strip_prefix(base).unwrap_or(&dir));
        targets.extend(project_targets(base, &rel, problems));
        found_projects.push(dir);
    }
    let (blueprints, included) = blueprints(root, base, &folders, problems);
    for (folder, name, real) in blueprints {
        if included.contains(&real) {
            continue;
        }
        let siblings = Siblings::of(folder, &folders[folder]);
        targets.extend(siblings.targets(base, name, problems));
    }
    targets
}

/// What a search leaves out beyond ignore files and hidden names.
struct Skip {
    base: PathBuf,
    /// Folders not searched, by their real path.
    except: Arc<Vec<PathBuf>>,
    excludes: Vec<Arc<Exclude>>,
}

impl Skip {
    /// `true` when the entry at `path` (a folder when `is_dir`) is left out.
    fn skips(&self, path: &Path, is_dir: bool) -> bool {
        if is_dir && path.join(RENDERED_FOLDER).exists() {
            return true;
        }
        if let Some(rel) = path.strip_prefix(&self.base).ok().and_then(Path::to_str) {
            // Every glob is tried, so that each one that matches is known to.
            let rel = rel.replace(std::path::MAIN_SEPARATOR, "/");
            let hit = self.excludes.iter().fold(false, |hit, e| e.matches(&rel, is_dir) | hit);
            if hit {
                return true;
            }
        }
        is_dir && !self.except.is_empty() && path.canonicalize().is_ok_and(|p| self.except.contains(&p))
    }
}

/// The search of `base`: hidden, ignored, skipped, excluded and rendered
/// folders left out; each Windsor project met is pushed to `projects` and
/// not entered.
fn walker(base: &Path, skip: Skip, ignores: Arc<Ignores>, projects: Arc<Mutex<Vec<PathBuf>>>) -> ignore::Walk {
    let mut walker = ignore::WalkBuilder::new(base);
    walker
        // Ignore files are read by `ignores`, under the root's rules; the
        // global excludes file and `.git/info/exclude` are not read at all:
        // what only one machine has must not change what a batch is (N
        // shards on N machines must see the same targets).
        .standard_filters(false)
        .hidden(true)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            if entry.depth() > 0 && ignores.ignored(entry.path(), is_dir) {
                return false;
            }
            if is_dir && SKIPPED.iter().any(|s| entry.file_name() == *s) {
                return false;
            }
            if entry.depth() > 0 && skip.skips(entry.path(), is_dir) {
                return false;
            }
            if !is_dir {
                return true;
            }
            // A project is a leaf: its own folders are its template's.
            if is_project(entry.path()) {
                projects
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(entry.path().to_path_buf());
                return false;
            }
            true
        });
    walker.build()
}

/// The files with a blueprint's extension that `walk` meets, by folder
/// (relative to `base`, `/`-separated), in name order.
fn files_by_folder(walk: ignore::Walk, base: &Path, problems: &mut Vec<Problem>) -> BTreeMap<String, Vec<String>> {
    let mut folders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(Problem::file(base.display().to_string(), format!("cannot search: {e}")));
                continue;
            }
        };
        if entry.depth() == 0 || entry.file_type().is_some_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(base) else {
            continue;
        };
        let Some(name) = rel.to_str().and(rel.file_name()).and_then(|n| n.to_str()) else {
            // A target's id is its path: a name that is not UTF-8 cannot
            // be one, and is said rather than passed over in silence.
            let lossy = entry.path().to_string_lossy();
            if extension(&lossy).is_some() {
                let message = "is not named in UTF-8, so it cannot be a target (rename it)";
                problems.push(Problem::file(lossy.into_owned(), message));
            }
            continue;
        };
        if extension(name).is_some() {
            let folder = rel.parent().map(slashed).unwrap_or_default();
            folders.entry(folder).or_default().push(name.to_string());
        }
    }
    folders
}

/// A blueprint found: its folder, its name and its real path.
type Found<'f> = (&'f str, &'f str, PathBuf);

/// Every blueprint among `folders`, and the real paths of all that they
/// include.
fn blueprints<'f>(
    root: &Root,
    base: &Path,
    folders: &'f BTreeMap<String, Vec<String>>,
    problems: &mut Vec<Problem>,
) -> (Vec<Found<'f>>, BTreeSet<PathBuf>) {
    let mut blueprints: Vec<Found<'f>> = Vec::new();
    let mut included: BTreeSet<PathBuf> = BTreeSet::new();
    for (folder, names) in folders {
        for name in names {
            if role(name) != Role::Candidate {
                continue;
            }
            let rel = join(folder, name);
            let text = match root.read_string(root.dir(), &rel) {
                Ok(text) => text,
                // Neither can be a blueprint bpvm loads.
                Err(e) if matches!(e.refusal, Refusal::TooLarge(_) | Refusal::NotText) => continue,
                Err(e) => {
                    let message = format!("cannot read: {e}");
                    problems.push(Problem::file(base.join(&rel).display().to_string(), message));
                    continue;
                }
            };
            let Some(includes) = sniff(name, &text) else {
                continue;
            };
            // It was just read through the root, so its real path resolves.
            let Ok(real) = root.resolve(root.dir(), &rel) else {
                continue;
            };
            // Resolved as the render resolves them: from the folder of
            // the blueprint's real path.
            let from = real.parent().unwrap_or(root.dir());
            included.extend(includes.iter().filter_map(|p| root.resolve(from, p).ok()));
            blueprints.push((folder, name, real));
        }
    }
    (blueprints, included)
}
