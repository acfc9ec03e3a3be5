//! `bpvm batch --watch`: after the batch, the targets a saved file affects
//! rendered again, and the targets that appear.

use super::args::Args;
use super::render::{self, Pick, Ran};
use crate::watch::{self, Changes, Reads, Session};
use bpvm::batch::{Kind, RecordKind, Status, Target};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Runs the batch, then again on each change for what it affects, until
/// Ctrl-C.
pub fn watch(args: &Args) -> ExitCode {
    let mut session = Batching {
        args,
        targets: BTreeMap::new(),
        paths: render::paths(args).iter().map(|p| watch::resolved(p)).collect(),
        tests: BTreeSet::new(),
    };
    session.run(&mut |_| Some(Pick::All));
    let outputs: Vec<PathBuf> = args.out.iter().chain(&args.report).cloned().collect();
    watch::watch(&mut session, &outputs)
}

struct Batching<'a> {
    args: &'a Args,
    /// What each target read when it last rendered, by id.
    targets: BTreeMap<String, Reads>,
    /// The PATHs searched, links resolved.
    paths: Vec<PathBuf>,
    /// With `--test`, each project's test folder.
    tests: BTreeSet<PathBuf>,
}

impl Batching<'_> {
    /// One batch of what `pick` chooses, printed as without `--watch`;
    /// whether it ran.
    fn run(&mut self, pick: &mut dyn FnMut(&[Target]) -> Option<Pick>) -> bool {
        match render::render_picked(self.args, pick) {
            Ok(Some(ran)) => {
                self.note(&ran);
                true
            }
            Ok(None) => false,
            Err(e) => {
                let _ = crate::exit::code(Err(e));
                true
            }
        }
    }

    /// Keeps what each target of `ran` read; forgets targets no longer
    /// found.
    fn note(&mut self, ran: &Ran) {
        let found: BTreeMap<&str, &Target> = ran.found.iter().map(|t| (t.id.as_str(), t)).collect();
        self.targets.retain(|id, _| found.contains_key(id.as_str()));
        if self.args.test {
            let projects = ran.found.iter().filter(|t| matches!(t.kind, Kind::Windsor { .. }));
            self.tests = projects.map(|t| tests(&t.template)).collect();
        }
        for record in ran.records.iter().filter(|r| r.kind != RecordKind::Test) {
            let Some(target) = found.get(record.id.as_str()) else {
                continue;
            };
            let mut reads = match &record.manifest {
                Some(m) => Reads::from_manifest(&m.inputs, &watch::resolved(&target.base)),
                None => Reads::default(),
            };
            if record.status == Status::Failed {
                // A template that failed to load read less than it
                // would: any change in its folder may mend it.
                reads.add_tree(&folder(target));
            }
            self.targets.insert(record.id.clone(), reads);
        }
    }
}

impl Session for Batching<'_> {
    fn reads(&self) -> Reads {
        let mut all = Reads::default();
        for reads in self.targets.values() {
            all.extend(reads);
        }
        // A blueprint or project made in a PATH is a new target.
        for path in &self.paths {
            all.add_listed(path);
        }
        for tests in &self.tests {
            all.add_tree(tests);
        }
        all
    }

    fn changed(&mut self, changes: &Changes) -> bool {
        let affected = affected_targets(&self.targets, changes);
        let known: BTreeSet<String> = self.targets.keys().cloned().collect();
        let test = self.args.test;
        self.run(&mut |found| {
            let picked = pick(found, &known, &affected, changes, test)?;
            watch::announce(changes, &said(&picked));
            Some(picked)
        })
    }
}

/// What runs again after `changes` of the targets `found`: those
/// `affected` and those not `known` before; with `test`, the test suites
/// of their projects and of the projects whose test folder changed.
/// `None` when nothing.
fn pick(
    found: &[Target],
    known: &BTreeSet<String>,
    affected: &BTreeSet<String>,
    changes: &Changes,
    test: bool,
) -> Option<Pick> {
    let targets: BTreeSet<String> = found
        .iter()
        .filter(|t| affected.contains(&t.id) || !known.contains(&t.id))
        .map(|t| t.id.clone())
        .collect();
    let projects = found.iter().filter(|t| test && matches!(t.kind, Kind::Windsor { .. }));
    let mut suites = BTreeSet::new();
    for t in projects {
        if suites.contains(&t.template) {
            continue;
        }
        let tests = tests(&t.template);
        if targets.contains(&t.id) || changes.keys().any(|p| p.starts_with(&tests)) {
            suites.insert(t.template.clone());
        }
    }
    (!targets.is_empty() || !suites.is_empty()).then_some(Pick::Only { targets, suites })
}

/// What the header of a run says is done.
fn said(picked: &Pick) -> String {
    let Pick::Only { targets, suites } = picked else {
        return "rendering every target again".to_string();
    };
    match (targets.len(), suites.len()) {
        (1, _) => "rendering 1 target again".to_string(),
        (0, 1) => "testing 1 project again".to_string(),
        (0, n) => format!("testing {n} projects again"),
        (n, _) => format!("rendering {n} targets again"),
    }
}

/// The ids of the targets whose last render a change in `changes`
/// affects: one it read or looked at, one in a folder it listed that was
/// created, removed or renamed there, or any change under the folder of
/// a target that failed.
pub fn affected_targets(targets: &BTreeMap<String, Reads>, changes: &Changes) -> BTreeSet<String> {
    targets
        .iter()
        .filter(|(_, reads)| changes.iter().any(|(path, entry)| reads.affected_by(path, *entry)))
        .map(|(id, _)| id.clone())
        .collect()
}

/// The folder of a target's template: the Windsor project, or the
/// Bluelink blueprint's folder.
fn folder(target: &Target) -> PathBuf {
    let template = watch::resolved(&target.template);
    match target.kind {
        Kind::Windsor { .. } => template,
        Kind::Bluelink { .. } => template.parent().map_or(template.clone(), Path::to_path_buf),
    }
}

/// A Windsor project's test folder, links resolved.
fn tests(project: &Path) -> PathBuf {
    watch::resolved(&project.join(bpvm::windsor::TEMPLATE).join("tests"))
}
