//! What `bpvm check` found: each template checked and its findings.

use bpvm_checker::{Finding, Severity};
use std::path::PathBuf;

/// The findings of one check run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    /// Each template checked, in the order found.
    pub templates: Vec<Checked>,
}

/// One template checked.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// `"windsor"` or `"bluelink"`.
    pub language: &'static str,
    /// The folder its findings' files are relative to: the Windsor
    /// project, or the Bluelink blueprint's folder (as the path given
    /// names it).
    pub folder: PathBuf,
    /// What was found, by file, then line and column.
    pub findings: Vec<Finding>,
    /// What a `bpvm:ignore` comment in the template suppressed.
    pub suppressed: Vec<Suppressed>,
}

/// A finding a `# bpvm:ignore[rule] reason` comment suppressed.
#[derive(Debug, Clone, PartialEq)]
pub struct Suppressed {
    /// The finding.
    pub finding: Finding,
    /// Why, as the comment says.
    pub reason: String,
}

/// How many findings of one rule a run reported, and suppressed.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// The rule's id.
    pub rule: &'static str,
    /// Its findings reported as errors.
    pub errors: usize,
    /// Its findings reported as warnings.
    pub warnings: usize,
    /// Its findings reported as notes.
    pub notes: usize,
    /// Its findings a comment suppressed.
    pub suppressed: usize,
}

impl Tally {
    /// The findings reported (not suppressed).
    pub fn reported(&self) -> usize {
        self.errors + self.warnings + self.notes
    }
}

impl Report {
    /// Every finding with the path of its file as the user names it
    /// (the template's folder joined with the file), in report order.
    pub fn findings(&self) -> impl Iterator<Item = (String, &Finding)> {
        self.templates
            .iter()
            .flat_map(|t| t.findings.iter().map(move |f| (named(t, f), f)))
    }

    /// Every suppressed finding with the path of its file as the user
    /// names it, as [`Report::findings`].
    pub fn suppressed(&self) -> impl Iterator<Item = (String, &Suppressed)> {
        self.templates
            .iter()
            .flat_map(|t| t.suppressed.iter().map(move |s| (named(t, &s.finding), s)))
    }

    /// Per rule, how many findings it reported and how many were
    /// suppressed: the rules most reported first, then by id.
    ///
    /// ```
    /// use bpvm::check::{Checked, Finding, Report};
    /// use bpvm::checker::rules::UNKNOWN_PATH;
    /// let f = Finding::new(&UNKNOWN_PATH, "a.yaml", "", "x: no such property");
    /// let report = Report { templates: vec![Checked { findings: vec![f.clone(), f], ..Checked::default() }] };
    /// assert_eq!((report.by_rule()[0].rule, report.by_rule()[0].warnings), ("unknown-path", 2));
    /// ```
    pub fn by_rule(&self) -> Vec<Tally> {
        let mut tallies: Vec<Tally> = Vec::new();
        let mut tally = |id: &'static str| -> usize {
            match tallies.iter().position(|t| t.rule == id) {
                Some(i) => i,
                None => {
                    tallies.push(Tally {
                        rule: id,
                        ..Tally::default()
                    });
                    tallies.len() - 1
                }
            }
        };
        let mut counts: Vec<(usize, Option<Severity>)> = Vec::new();
        for t in &self.templates {
            for f in &t.findings {
                counts.push((tally(f.rule.id), Some(f.severity())));
            }
            for s in &t.suppressed {
                counts.push((tally(s.finding.rule.id), None));
            }
        }
        for (i, severity) in counts {
            let t = &mut tallies[i];
            match severity {
                Some(Severity::Error) => t.errors += 1,
                Some(Severity::Warning) => t.warnings += 1,
                Some(Severity::Note) => t.notes += 1,
                None => t.suppressed += 1,
            }
        }
        tallies.sort_by(|a, b| (b.reported(), b.suppressed, a.rule).cmp(&(a.reported(), a.suppressed, b.rule)));
        tallies
    }

    /// How many findings have `severity`.
    pub fn count(&self, severity: Severity) -> usize {
        self.templates
            .iter()
            .flat_map(|t| &t.findings)
            .filter(|f| f.severity() == severity)
            .count()
    }

    /// Whether the run fails: any error, or any warning when warnings
    /// are denied.
    pub fn fails(&self, deny_warnings: bool) -> bool {
        self.count(Severity::Error) > 0 || (deny_warnings && self.count(Severity::Warning) > 0)
    }
}

/// The path of `f`'s file as the user names it: the template's folder
/// joined with the file.
fn named(t: &Checked, f: &Finding) -> String {
    // `./infra` (a folder searched from `.`) is written `infra`, as every
    // command prints a file of a project.
    bpvm_runtime::root::shown(&t.folder, &f.file)
}
