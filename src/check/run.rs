//! Which templates a check covers, and checking each.

use super::ignore;
use super::report::{Checked, Report};
use super::rules::rule_ids;
use super::tune::{self, ConfigError, Tuning};
use crate::batch::{self, Kind, Search, queue};
use bpvm_runtime::Problems;
pub use bpvm_windsor::check::Kept;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// The configuration for checking each of `paths` (see
/// [`tune::find`]), or every mistake in the files found.
///
/// ```
/// let tunings = bpvm::check::tunings(&["examples/windsor"]).unwrap();
/// assert!(tunings[0].is_none());
/// ```
pub fn tunings(paths: &[impl AsRef<Path>]) -> Result<Vec<Option<Tuning>>, Vec<ConfigError>> {
    let ids = rule_ids();
    let mut found = Vec::new();
    let mut errors: Vec<ConfigError> = Vec::new();
    for path in paths {
        match tune::find(path.as_ref(), &ids) {
            Ok(t) => found.push(t),
            Err(e) => errors.extend(e.into_iter().filter(|e| !errors.contains(e)).collect::<Vec<_>>()),
        }
    }
    if errors.is_empty() { Ok(found) } else { Err(errors) }
}

/// A template a check covers: a Windsor project folder, or a Bluelink
/// blueprint file.
#[derive(PartialEq)]
enum Template {
    Windsor(PathBuf),
    Bluelink(PathBuf),
}

/// Checks every template under `paths`: a Windsor project, a Bluelink
/// blueprint, or a folder searched as `bpvm batch` searches one (each
/// project and blueprint once, whatever its contexts or variable sets;
/// a project without contexts too). A path that cannot be searched
/// is a problem; templates that do not load are findings
/// (`invalid-template`), so one run reports every template's mistakes.
///
/// ```
/// let report = bpvm::check::check(&["examples/windsor"]).unwrap();
/// assert_eq!(report.templates.len(), 1);
/// assert!(!report.fails(false));
/// ```
pub fn check(paths: &[impl AsRef<Path>]) -> Result<Report, Problems<batch::Problem>> {
    check_with(paths, &|_, _| {})
}

/// [`check`], the templates checked on every core, calling
/// `progress(done, total)` as each one's check ends (from any thread).
/// The report is in the order the templates were found, whatever order
/// their checks end in.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// let ended = AtomicUsize::new(0);
/// let report = bpvm::check::check_with(&["examples"], &|done, total| {
///     assert!(done <= total);
///     ended.fetch_add(1, Ordering::Relaxed);
/// })
/// .unwrap();
/// assert_eq!(ended.into_inner(), report.templates.len());
/// ```
pub fn check_with(
    paths: &[impl AsRef<Path>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Report, Problems<batch::Problem>> {
    check_searching(paths, &Search::default(), &[], progress).0
}

/// [`check_with`], folders searched as `search` says (`--exclude`), and
/// each finding's severity set (or the finding dropped) by the
/// configuration of the PATH it was found under: `tunings[i]` for
/// `paths[i]` (as [`tunings`] gives them; missing ones leave the rules'
/// own severities). With the warnings the search met (an exclusion that
/// matched nothing), whether or not it met problems.
///
/// ```
/// use bpvm::batch::Search;
/// let paths = ["examples"];
/// let search = Search { exclude: vec!["windsor*".into()], ..Search::default() };
/// let tunings = bpvm::check::tunings(&paths).unwrap();
/// let (report, warnings) = bpvm::check::check_searching(&paths, &search, &tunings, &|_, _| {});
/// let report = report.unwrap();
/// assert!(report.templates.iter().all(|t| t.language == "bluelink"));
/// assert!(warnings.is_empty());
/// ```
pub fn check_searching(
    paths: &[impl AsRef<Path>],
    search: &Search,
    tunings: &[Option<Tuning>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Result<Report, Problems<batch::Problem>>, Vec<String>) {
    let (templates, warnings) = templates(paths, search);
    (templates.map(|t| check_all(t, tunings, progress)), warnings)
}

/// Checks `templates` on every core, each tuned by the configuration of
/// the path it was found under.
fn check_all(
    templates: Vec<(Template, usize)>,
    tunings: &[Option<Tuning>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Report {
    let total = templates.len();
    let checked: Mutex<Vec<Option<Checked>>> = Mutex::new(vec![None; total]);
    let done = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(total.max(1));
    queue::drain(
        threads,
        templates.into_iter().enumerate().collect(),
        |(i, (t, from))| {
            let mut c = one(t);
            if let Some(Some(tuning)) = tunings.get(from) {
                tuning.apply(&mut c);
            }
            checked.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(c);
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Vec::new()
        },
    );
    let templates = checked.into_inner().unwrap_or_else(PoisonError::into_inner);
    Report {
        templates: templates.into_iter().flatten().collect(),
    }
}

/// Templates found, each with the index of the path it was found under.
type Found = Vec<(Template, usize)>;

/// The templates under `paths`, each once, in the order found, and the
/// search's warnings.
fn templates(paths: &[impl AsRef<Path>], search: &Search) -> (Result<Found, Problems<batch::Problem>>, Vec<String>) {
    let mut templates: Found = Vec::new();
    let (mut problems, mut warnings) = (Vec::new(), Vec::new());
    let mut folders: Vec<&Path> = Vec::new();
    // Each `--exclude` glob matched nothing under any folder searched yet.
    let mut unmatched: Option<Vec<String>> = None;
    for (from, path) in paths.iter().enumerate() {
        let mut push = |t: Template| {
            if !templates.iter().any(|(o, _)| *o == t) {
                templates.push((t, from));
            }
        };
        let path = path.as_ref();
        if batch::discover::is_project(path) {
            push(Template::Windsor(path.to_path_buf()));
            continue;
        }
        if path.is_file() {
            push(Template::Bluelink(path.to_path_buf()));
            continue;
        }
        // One folder at a time: the same id under two folders is no clash.
        let found = batch::discover_with(&[path], search);
        folders.push(path);
        problems.extend(found.problems);
        warnings.extend(found.warnings);
        match &mut unmatched {
            None => unmatched = Some(found.unmatched),
            Some(still) => still.retain(|glob| found.unmatched.contains(glob)),
        }
        for p in found.projects {
            push(Template::Windsor(p));
        }
        for t in found.targets {
            match t.kind {
                Kind::Windsor { .. } => push(Template::Windsor(t.template)),
                Kind::Bluelink { .. } => push(Template::Bluelink(t.template)),
            }
        }
    }
    // With no folder searched, no glob matched anything either.
    let unmatched = unmatched.unwrap_or_else(|| search.exclude.clone());
    let under: Vec<&Path> = if folders.is_empty() {
        paths.iter().map(AsRef::as_ref).collect()
    } else {
        folders
    };
    warnings.extend(unmatched.iter().map(|glob| batch::unmatched_exclude(glob, &under)));
    if problems.is_empty() {
        (Ok(templates), warnings)
    } else {
        (Err(Problems::new(problems)), warnings)
    }
}

/// Checks one template, and applies its `bpvm:ignore` comments.
fn one(t: Template) -> Checked {
    let ids = rule_ids();
    match t {
        Template::Windsor(dir) => {
            let findings = bpvm_windsor::check::check(&dir);
            windsor_checked(dir, findings, &ids)
        }
        Template::Bluelink(file) => {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut checked = Checked {
                language: "bluelink",
                findings: bpvm_bluelink::check::check(&file, &name),
                folder: file.parent().map(Path::to_path_buf).unwrap_or_default(),
                suppressed: Vec::new(),
            };
            ignore::apply(&mut checked, &[(name, file)], &ids);
            checked
        }
    }
}

/// The Windsor project `dir` with `findings`, its `bpvm:ignore`
/// comments applied (`ids`: the rule ids).
fn windsor_checked(dir: PathBuf, findings: Vec<bpvm_checker::Finding>, ids: &[&str]) -> Checked {
    let mut checked = Checked {
        language: "windsor",
        findings,
        folder: dir,
        suppressed: Vec::new(),
    };
    let files = ignore::windsor_files(&checked.folder);
    ignore::apply(&mut checked, &files, ids);
    checked
}

/// Checks the Windsor project `dir` as [`check_searching`] checks it
/// (`tuning`: the configuration [`tunings`] gives for it), taking from
/// `kept` what the last check through it found that cannot have changed
/// since (see [`bpvm_windsor::check::check_reusing`]): an editor checks
/// a project again on every edit. The report is the one
/// [`check_searching`] gives.
///
/// ```
/// use bpvm::check::{Kept, check, check_windsor_reusing};
/// let mut kept = Kept::default();
/// let first = check_windsor_reusing("examples/windsor".as_ref(), None, &mut kept);
/// let again = check_windsor_reusing("examples/windsor".as_ref(), None, &mut kept);
/// assert_eq!(first.templates[0].findings, again.templates[0].findings);
/// assert_eq!(first.templates[0].findings, check(&["examples/windsor"]).unwrap().templates[0].findings);
/// ```
pub fn check_windsor_reusing(dir: &Path, tuning: Option<&Tuning>, kept: &mut Kept) -> Report {
    let findings = bpvm_windsor::check::check_reusing(dir, kept);
    let mut checked = windsor_checked(dir.to_path_buf(), findings, &rule_ids());
    if let Some(tuning) = tuning {
        tuning.apply(&mut checked);
    }
    Report {
        templates: vec![checked],
    }
}
