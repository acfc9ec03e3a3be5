//! Errors that name their place (D6): the file, the YAML path of the value
//! and, for expressions, line:column inside the expression.

use std::fmt;

/// One problem with a project or a render.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The file, relative to the project root, when the problem is in one.
    pub file: Option<String>,
    /// The YAML path of the value (`terraform[cluster].inputs.endpoint`).
    pub at: String,
    /// What is wrong (an expression's diagnostic, with its caret, included).
    pub message: String,
    /// The line and column of `at` in the file, once looked up (when the
    /// project's errors are reported).
    pub pos: Option<(usize, usize)>,
}

impl Error {
    /// A problem at `at` in `file`.
    pub fn new(file: Option<&str>, at: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            file: file.map(str::to_string),
            at: at.into(),
            message: message.into(),
            pos: None,
        }
    }
}

/// Looks up where in its file each error's YAML path is (each file read
/// once, through the project's root), for messages in the
/// `file:line:column: path: message` form.
pub fn locate(root: &bpvm_runtime::root::Root, errors: &mut Errors) {
    let mut texts = crate::texts::Texts::new(root);
    for e in errors.0.iter_mut().filter(|e| e.pos.is_none() && !e.at.is_empty()) {
        if let Some(file) = &e.file {
            e.pos = texts.locate(file, &e.at);
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.pos) {
            (Some(file), Some((line, col))) => write!(f, "{file}:{line}:{col}: ")?,
            (Some(file), None) => write!(f, "{file}: ")?,
            _ => {}
        }
        if !self.at.is_empty() {
            write!(f, "{}: ", bpvm_runtime::excerpt::clip(&self.at))?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// A warning as a line of a report: `warning: …`, or with `strict`
/// (`--strict`) `error: … (an error by --strict)` — the one wording every
/// command and the batch give it.
///
/// ```
/// use bpvm_windsor::warning_line;
/// assert_eq!(warning_line("x.yaml:1:1: a: odd", false), "warning: x.yaml:1:1: a: odd");
/// assert_eq!(warning_line("x.yaml:1:1: a: odd", true), "error: x.yaml:1:1: a: odd (an error by --strict)");
/// ```
pub fn warning_line(warning: impl fmt::Display, strict: bool) -> String {
    match strict {
        true => format!("error: {warning} (an error by --strict)"),
        false => format!("warning: {warning}"),
    }
}

/// Every problem found, so that one run reports them all.
pub type Errors = bpvm_runtime::Problems<Error>;
