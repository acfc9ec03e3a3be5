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
}

impl Error {
    /// A problem at `at` in `file`.
    pub fn new(file: Option<&str>, at: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            file: file.map(str::to_string),
            at: at.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if !self.at.is_empty() {
            write!(f, "{}: ", bpvm_runtime::excerpt::clip(&self.at))?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Every problem found, so that one run reports them all.
pub type Errors = bpvm_runtime::Problems<Error>;
