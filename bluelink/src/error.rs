//! Errors that name their place: the file, line:column in it, and the
//! path of the value inside the blueprint (`resources.fn.spec.timeout`),
//! with the file's line under the message and a caret under the column.

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
    /// The file's line at `at`, as it was read, and how many characters
    /// from `at` are at fault: the excerpt under the message.
    pub source: Option<Box<(String, usize)>>,
}

impl fmt::Display for Error {
    /// `file:line:column: error: path: message` (the form compilers print
    /// and CI problem matchers read), then the file's line with a caret.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Some("error")))
    }
}

impl std::error::Error for Error {}

/// How a message ends that names what was probably meant.
const HINT: (&str, &str) = ("; did you mean ", "?");

impl Error {
    /// The error inside another message (a test's expectation): as it is
    /// printed, without the severity.
    ///
    /// ```
    /// use bpvm_bluelink::{Error, Pos};
    /// let e = Error::new("bp.yaml", Pos { line: 2, col: 3 }, "resources", "expected a mapping");
    /// assert_eq!(e.described(), "bp.yaml:2:3: resources: expected a mapping");
    /// ```
    pub fn described(&self) -> String {
        self.text(None)
    }

    /// The printed text, with `severity` after the place when given.
    fn text(&self, severity: Option<&str>) -> String {
        let at = (self.at.line > 0).then_some((self.at.line as usize, self.at.col as usize));
        let message = match self.path.is_empty() {
            true => self.message.clone(),
            false => format!("{}: {}", bpvm_runtime::excerpt::clip(&self.path), self.message),
        };
        let mut out = match severity {
            Some(severity) => bpvm_runtime::excerpt::headline(Some(&self.file), at, severity, &message),
            None => bpvm_runtime::excerpt::place(Some(&self.file), at) + &message,
        };
        if let (Some((text, width)), Some((line, col))) = (self.source.as_deref(), at) {
            out.push('\n');
            out.push_str(&bpvm_runtime::excerpt::snippet(text, line, col, *width));
        }
        out
    }

    /// A problem at `at` in `file`, the value at `path` (or ""); the
    /// file's line is added once the file's problems are all known (see
    /// [`Error::source`]).
    ///
    /// ```
    /// use bpvm_bluelink::{Error, Pos};
    /// let mut e = Error::new("bp.yaml", Pos { line: 2, col: 3 }, "resources", "expected a mapping");
    /// assert_eq!(e.to_string(), "bp.yaml:2:3: error: resources: expected a mapping");
    /// e.source = Some(Box::new(("  - fn".into(), 1)));
    /// assert_eq!(e.to_string(), "bp.yaml:2:3: error: resources: expected a mapping\n  |\n2 |   - fn\n  |   ^\n");
    /// ```
    pub fn new(file: impl Into<String>, at: Pos, path: impl Into<String>, message: impl Into<String>) -> Error {
        Error {
            file: file.into(),
            at,
            path: path.into(),
            message: message.into(),
            source: None,
        }
    }

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
    ///     source: None,
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
