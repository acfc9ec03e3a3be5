//! How a team tunes `bpvm check`: a `check:` section, in `bpvm.yaml` or
//! `bpvm-batch.yaml`, setting rules' severities (or switching them off)
//! for every file and per path glob.
//!
//! ```yaml
//! check:
//!   rules:
//!     unknown-path: off        # off | note | warning | error
//!   paths:
//!     - glob: "contexts/_template/tests/**"
//!       rules:
//!         test-ignored-key: error
//! ```
//!
//! Path entries apply in order after `rules`, a later one winning; globs
//! are relative to the configuration file's folder (`*` stays inside one
//! folder, `**` crosses any number).

mod find;
mod read;
pub(crate) mod shape;

use super::report::Checked;
use bpvm_checker::Severity;
use globset::GlobMatcher;
use std::fmt;
use std::path::{Path, PathBuf};

pub use find::find;

/// What a configuration sets a rule to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Not reported at all.
    Off,
    /// Reported with this severity.
    On(Severity),
}

/// A check configuration: the rules it sets, everywhere and per path.
///
/// ```
/// use bpvm::check::tune::{Level, find};
/// use bpvm::check::Severity;
/// let dir = tempfile::tempdir().unwrap();
/// let config = "check:\n  rules: {unknown-path: off}\n  paths:\n    - glob: \"tests/**\"\n      rules: {unknown-path: note}\n";
/// std::fs::write(dir.path().join("bpvm.yaml"), config).unwrap();
/// let tuning = find(dir.path(), &["unknown-path"]).unwrap().unwrap();
/// let at = |file: &str| tuning.level("unknown-path", &dir.path().join(file));
/// assert_eq!(at("facets/a.yaml"), Some(Level::Off));
/// assert_eq!(at("tests/a.yaml"), Some(Level::On(Severity::Note)));
/// assert_eq!(tuning.level("type-mismatch", &dir.path().join("a.yaml")), None);
/// ```
#[derive(Debug, Clone, Default)]
pub struct Tuning {
    /// The file it was read from, as shown in messages.
    pub file: String,
    /// Its folder, absolute: globs are relative to it.
    folder: PathBuf,
    /// `rules`: rule id and level, in order.
    rules: Vec<(String, Level)>,
    /// `paths`, in order.
    paths: Vec<Scoped>,
}

/// One `paths` entry.
#[derive(Debug, Clone)]
struct Scoped {
    glob: GlobMatcher,
    rules: Vec<(String, Level)>,
}

/// A mistake in a configuration file, where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    /// The file, as shown.
    pub file: String,
    /// 1-based line (0: the file as a whole).
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
    /// What is wrong (with a did-you-mean when a name was misspelt).
    pub message: String,
}

impl ConfigError {
    /// The mistake as every command prints an error:
    /// `file:line:column: error: message`.
    ///
    /// ```
    /// use bpvm::check::tune::ConfigError;
    /// let e = ConfigError { file: "bpvm.yaml".into(), line: 2, column: 3, message: "unknown key rule".into() };
    /// assert_eq!(e.printed(), "bpvm.yaml:2:3: error: unknown key rule");
    /// ```
    pub fn printed(&self) -> String {
        let at = (self.line > 0).then_some((self.line, self.column));
        bpvm_runtime::excerpt::headline(Some(&self.file), at, "error", &self.message)
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
        } else {
            write!(f, "{}: {}", self.file, self.message)
        }
    }
}

impl Tuning {
    /// The level of rule `id` for `file` (absolute), or `None` when the
    /// configuration leaves the rule's own severity.
    pub fn level(&self, id: &str, file: &Path) -> Option<Level> {
        let mut level = last(&self.rules, id);
        if let Ok(relative) = file.strip_prefix(&self.folder) {
            for scoped in self.paths.iter().filter(|s| s.glob.is_match(relative)) {
                level = last(&scoped.rules, id).or(level);
            }
        }
        level
    }

    /// Sets the severity of each finding of `checked` as configured,
    /// dropping those of a rule switched off.
    pub fn apply(&self, checked: &mut Checked) {
        let folder = normal(&checked.folder);
        checked
            .findings
            .retain_mut(|f| match self.level(f.rule.id, &folder.join(&f.file)) {
                Some(Level::Off) => false,
                Some(Level::On(severity)) => {
                    f.level = severity;
                    true
                }
                None => true,
            });
        checked
            .suppressed
            .retain(|s| self.level(s.finding.rule.id, &folder.join(&s.finding.file)) != Some(Level::Off));
    }
}

/// The level the last entry for `id` in `rules` sets.
fn last(rules: &[(String, Level)], id: &str) -> Option<Level> {
    rules.iter().rev().find(|(r, _)| r == id).map(|(_, l)| *l)
}

/// `path` made absolute, with `.` and `..` resolved in its text (not
/// through links), so a glob sees `contexts/x.yaml` however the folder
/// was named.
pub(crate) fn normal(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    bpvm_runtime::root::normalize(&absolute)
}
