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
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// `"windsor"` or `"bluelink"`.
    pub language: &'static str,
    /// The folder its findings' files are relative to: the Windsor
    /// project, or the Bluelink blueprint's folder (as the path given
    /// names it).
    pub folder: PathBuf,
    /// What was found, by file, then line and column.
    pub findings: Vec<Finding>,
}

impl Report {
    /// Every finding with the path of its file as the user names it
    /// (the template's folder joined with the file), in report order.
    pub fn findings(&self) -> impl Iterator<Item = (String, &Finding)> {
        self.templates.iter().flat_map(|t| {
            t.findings.iter().map(move |f| {
                // `./infra` (a folder searched from `.`) is written `infra`.
                let folder = t.folder.to_string_lossy();
                let folder = folder.trim_start_matches("./").trim_end_matches('/');
                let path = if folder.is_empty() || folder == "." {
                    f.file.clone()
                } else {
                    format!("{folder}/{}", f.file)
                };
                (path, f)
            })
        })
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
