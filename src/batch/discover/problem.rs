//! A problem met by discovery, with where it is. A leaf: the discovery
//! modules report through it.

use std::fmt;

/// One problem met by discovery, printed `file:line:col: yaml.path: message`
/// (line, column and path when known).
///
/// ```
/// use bpvm::batch::Problem;
/// let p = Problem { file: "bpvm-batch.yaml".into(), line: 3, col: 5, path: "targets[0].contexts".into(), message: "expected a list".into() };
/// assert_eq!(p.to_string(), "bpvm-batch.yaml:3:5: targets[0].contexts: expected a list");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file or folder concerned, as reached from the folder searched.
    pub file: String,
    /// The line in `file`, from 1; 0 when not about one place.
    pub line: u32,
    /// The column in `file`, from 1; 0 when not about one place.
    pub col: u32,
    /// The path of the value at fault (`targets[1].windsor`), or "".
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem with the whole of `file`.
    pub(crate) fn file(file: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            file: file.into(),
            line: 0,
            col: 0,
            path: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.col)?;
        }
        write!(f, ": ")?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}
