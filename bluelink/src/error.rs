//! Errors that name their place (D6): the file, line:column in it, and the
//! path of the value inside the blueprint (`resources.fn.spec.timeout`).

use std::fmt;

/// A 1-based line and column in a blueprint file (0:0 when unknown).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub col: u32,
}

/// One problem with a blueprint or its render.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The file, as it was named on the command line or by `include`.
    pub file: String,
    /// Where in the file.
    pub at: Pos,
    /// The path of the value in the blueprint (`resources.fn.spec`), or "".
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.at.line > 0 {
            write!(f, ":{}:{}", self.at.line, self.at.col)?;
        }
        write!(f, ": ")?;
        if !self.path.is_empty() {
            write!(f, "{}: ", bpvm_runtime::excerpt::clip(&self.path))?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// How a message ends that names what was probably meant.
const HINT: (&str, &str) = ("; did you mean ", "?");

impl Error {
    /// What was probably meant, when the message says
    /// (`variables.regoin is not defined; did you mean variables.region?`).
    ///
    /// ```
    /// use bpvm_bluelink::{Error, Pos};
    /// let e = Error {
    ///     file: "bp.yaml".into(),
    ///     at: Pos { line: 3, col: 9 },
    ///     path: "resources.fn.spec.region".into(),
    ///     message: "variables.regoin is not defined; did you mean variables.region?".into(),
    /// };
    /// assert_eq!(e.hint(), Some("variables.region"));
    /// assert_eq!(e.problem(), "variables.regoin is not defined");
    /// ```
    pub fn hint(&self) -> Option<&str> {
        self.split().1
    }

    /// The message without what was probably meant.
    pub fn problem(&self) -> &str {
        self.split().0
    }

    fn split(&self) -> (&str, Option<&str>) {
        let (lead, end) = HINT;
        let hinted = self
            .message
            .strip_suffix(end)
            .and_then(|m| m.rsplit_once(lead))
            .filter(|(_, hint)| !hint.is_empty() && !hint.contains(' '));
        match hinted {
            Some((problem, hint)) => (problem, Some(hint)),
            None => (&self.message, None),
        }
    }
}

/// `message`, and what was probably meant when there is a guess.
pub(crate) fn hinted(message: String, hint: Option<&str>) -> String {
    match hint {
        Some(h) => format!("{message}{}{h}{}", HINT.0, HINT.1),
        None => message,
    }
}

/// Every problem found, so that one run reports them all.
pub type Errors = bpvm_runtime::Problems<Error>;
