//! One case of a case file, and what a runner says when it fails.

use bpvm_runtime::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A YAML case file, read once for all its cases.
pub struct CaseFile {
    pub path: PathBuf,
    /// The file as a document.
    pub doc: Value,
}

impl CaseFile {
    /// The file's top-level entry `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.doc.as_map()?.get(key)
    }

    /// The folder the file is in (fixtures are named relative to it).
    pub fn folder(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new("."))
    }
}

/// One item of a case file's list of cases.
pub struct Case {
    pub file: Arc<CaseFile>,
    /// The key of the list it is in (`cases`, `parses`).
    pub list: String,
    /// Its place in that list, from 0.
    pub index: usize,
    /// The case's mapping.
    pub fields: Map,
}

impl Case {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// The field `key` when it is text.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
}

/// Why a case failed: problems (the case is wrong as written, or gave
/// something its expectations cannot state) and differences between what
/// it expects and what it gave. Empty is a pass.
#[derive(Default, Debug)]
pub struct Failure {
    pub problems: Vec<String>,
    pub differences: Vec<Difference>,
}

/// One expectation not met.
#[derive(Debug)]
pub struct Difference {
    /// What differs (`result`, `error`, `terraform`, …).
    pub what: String,
    /// The expectation and the outcome as text, compared line by line.
    pub expected: String,
    pub actual: String,
    /// How blessing makes the file expect the outcome; `None` when only a
    /// person can (the outcome changed kind, or the case expects nothing).
    pub fix: Option<Fix>,
}

/// A change that makes a case file expect what its case gave.
#[derive(Debug, Clone)]
pub enum Fix {
    /// The case's field becomes this value (added when missing).
    Field(String, Value),
    /// A file the case names (an expected output) becomes this text.
    File(PathBuf, String),
}

impl Failure {
    /// A failure with one problem.
    pub fn problem(why: impl Into<String>) -> Failure {
        Failure {
            problems: vec![why.into()],
            differences: Vec::new(),
        }
    }

    /// Records that `what` expected `expected` and the case gave `actual`;
    /// `fix` says how blessing makes the file expect it.
    pub fn differs(&mut self, what: &str, expected: String, actual: String, fix: Option<Fix>) {
        self.differences.push(Difference {
            what: what.into(),
            expected,
            actual,
            fix,
        })
    }

    /// `Ok` when nothing failed.
    pub fn result(self) -> Result<(), Failure> {
        if self.problems.is_empty() && self.differences.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }

    /// Whether blessing can make the file expect what the case gave.
    pub fn blessable(&self) -> bool {
        self.problems.is_empty() && self.differences.iter().all(|d| d.fix.is_some())
    }
}

impl From<String> for Failure {
    fn from(why: String) -> Failure {
        Failure::problem(why)
    }
}

impl Difference {
    /// The field `key` expected `expected` and the case gave `actual`
    /// (shown as indented JSON, so types show: `2` is not `2.0`); blessing
    /// writes `actual`.
    pub fn field(key: &str, expected: &Value, actual: &Value) -> Difference {
        Difference {
            what: key.to_string(),
            expected: pretty(expected),
            actual: pretty(actual),
            fix: Some(Fix::Field(key.to_string(), actual.clone())),
        }
    }
}

/// `v` as indented JSON, keys in document order.
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_json())
}
