//! Which templates a check covers, and checking each.

use super::report::{Checked, Report};
use crate::batch::{self, Kind};
use bpvm_checker::Rule;
use bpvm_runtime::Problems;
use std::path::{Path, PathBuf};

/// Every rule a check can report, shared ones first, then Windsor's and
/// Bluelink's, each once.
///
/// ```
/// let ids: Vec<&str> = bpvm::check::rules().iter().map(|r| r.id).collect();
/// assert!(ids.contains(&"unknown-path") && ids.contains(&"schema-violation"));
/// ```
pub fn rules() -> Vec<&'static Rule> {
    let mut out: Vec<&'static Rule> = Vec::new();
    for set in [bpvm_checker::rules::SHARED, bpvm_windsor::check::RULES] {
        for r in set {
            if !out.iter().any(|o| o.id == r.id) {
                out.push(r);
            }
        }
    }
    out
}

/// What a check covers: a Windsor project folder, else a folder searched
/// as `bpvm batch` searches it (each project and blueprint found once,
/// whatever its contexts or variable sets).
enum Template {
    Windsor(PathBuf),
}

/// Checks every template under `paths`. A path that cannot be searched
/// is a problem; templates that do not load are findings
/// (`invalid-template`), so one run reports every template's mistakes.
///
/// ```
/// let report = bpvm::check::check(&["examples/windsor"]).unwrap();
/// assert_eq!(report.templates.len(), 1);
/// assert!(!report.fails(false));
/// ```
pub fn check(paths: &[impl AsRef<Path>]) -> Result<Report, Problems<batch::Problem>> {
    let mut templates: Vec<Template> = Vec::new();
    let mut problems = Vec::new();
    for path in paths {
        let path = path.as_ref();
        if batch::discover::is_project(path) {
            push(&mut templates, Template::Windsor(path.to_path_buf()));
            continue;
        }
        let found = batch::discover(&[path]);
        problems.extend(found.problems);
        for p in found.projects {
            push(&mut templates, Template::Windsor(p));
        }
        for t in found.targets {
            match t.kind {
                Kind::Windsor { .. } => push(&mut templates, Template::Windsor(t.template)),
                Kind::Bluelink { .. } => {}
            }
        }
    }
    if !problems.is_empty() {
        return Err(Problems::new(problems));
    }
    let templates = templates
        .into_iter()
        .map(|t| match t {
            Template::Windsor(dir) => Checked {
                language: "windsor",
                findings: bpvm_windsor::check::check(&dir),
                folder: dir,
            },
        })
        .collect();
    Ok(Report { templates })
}

fn push(templates: &mut Vec<Template>, t: Template) {
    let same = |a: &Template, b: &Template| match (a, b) {
        (Template::Windsor(x), Template::Windsor(y)) => x == y,
    };
    if !templates.iter().any(|o| same(o, &t)) {
        templates.push(t);
    }
}
