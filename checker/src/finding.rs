//! What a check reports about a template: a rule, where, and what to do.

use std::fmt;

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth knowing, never a failure (a rule a configuration relaxed).
    Note,
    /// Probably a mistake; the template still renders.
    Warning,
    /// A mistake: the template renders wrongly or not at all.
    Error,
}

impl Severity {
    /// `note`, `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A kind of mistake a checker finds.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable id, the same in every release (`unknown-path`).
    pub id: &'static str,
    /// How much its findings matter.
    pub severity: Severity,
    /// What it finds, in one line.
    pub summary: &'static str,
}

/// One mistake found.
///
/// ```
/// use bpvm_checker::{Finding, Rule, Severity};
/// static RULE: Rule = Rule { id: "unknown-path", severity: Severity::Warning, summary: "a path nothing provides" };
/// let f = Finding::new(&RULE, "facets/aws.yaml", "when", "cluster.wokers: no such property")
///     .at(3, 7)
///     .suggest("cluster.workers");
/// assert_eq!(f.to_string(), "facets/aws.yaml:3:7: warning[unknown-path]: cluster.wokers: no such property; did you mean cluster.workers?");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule it breaks.
    pub rule: &'static Rule,
    /// The file, relative to the project or blueprint's folder.
    pub file: String,
    /// Where in the file's document (`terraform[0].inputs.cidr`; empty:
    /// the file as a whole).
    pub path: String,
    /// 1-based line (0: unknown).
    pub line: usize,
    /// 1-based column (0: unknown).
    pub column: usize,
    /// How many characters the finding covers from there (at least 1).
    pub width: usize,
    /// What is wrong.
    pub message: String,
    /// What was probably meant.
    pub suggestion: Option<String>,
    /// The text of the line, for showing it with a caret.
    pub source: Option<String>,
    /// How much it matters: its rule's severity unless a configuration
    /// set another for this rule or this file.
    pub level: Severity,
}

impl Finding {
    /// A finding of `rule` about `file` at YAML path `path`.
    pub fn new(
        rule: &'static Rule,
        file: impl Into<String>,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            rule,
            file: file.into(),
            path: path.into(),
            line: 0,
            column: 0,
            width: 1,
            message: message.into(),
            suggestion: None,
            source: None,
            level: rule.severity,
        }
    }

    /// The finding at `line`:`column`.
    pub fn at(mut self, line: usize, column: usize) -> Finding {
        self.line = line;
        self.column = column;
        self
    }

    /// The finding with a suggestion.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Finding {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// How much it matters: [`Finding::level`].
    pub fn severity(&self) -> Severity {
        self.level
    }

    /// What is wrong, after where: the message, led by the YAML path
    /// when the line is not known (it is then the only place given).
    ///
    /// ```
    /// use bpvm_checker::Finding;
    /// use bpvm_checker::rules::INVALID_TEMPLATE;
    /// let f = Finding::new(&INVALID_TEMPLATE, "bp.yaml", "resources", "not a mapping");
    /// assert_eq!(f.statement(), "resources: not a mapping");
    /// assert_eq!(f.at(3, 1).statement(), "not a mapping");
    /// ```
    pub fn statement(&self) -> String {
        if self.line == 0 && !self.path.is_empty() {
            format!("{}: {}", self.path, self.message)
        } else {
            self.message.clone()
        }
    }

    /// [`Finding::statement`] and the suggestion: `…; did you mean x?`.
    pub fn text(&self) -> String {
        match &self.suggestion {
            Some(s) => format!("{}; did you mean {s}?", self.statement()),
            None => self.statement(),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.column)?;
        }
        write!(f, ": {}[{}]: {}", self.severity().name(), self.rule.id, self.text())
    }
}
