//! One error type for a host of the library: which phase failed, and for
//! each problem the file, the YAML path and the line:column it is at.

use bpvm_bluelink as bluelink;
use bpvm_runtime::Diagnostic;
use bpvm_windsor as windsor;
use std::fmt;

/// Why a call into bpvm failed. Each variant keeps the phase's own error
/// (every problem it found, not only the first); [`Error::problems`] gives
/// their places in one shape.
///
/// ```
/// use bpvm::{Compiler, Dialect, Error};
/// let err = Compiler::new(Dialect::Windsor).compile("a +").map_err(Error::Compile).unwrap_err();
/// match &err {
///     Error::Compile(d) => assert_eq!(d.line_col(), (1, 4)),
///     other => panic!("not a compile error: {other}"),
/// }
/// let p = &err.problems()[0];
/// assert_eq!((p.line, p.column, p.file), (Some(1), Some(4), None));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// An expression did not compile (the expression, the span at fault).
    Compile(Diagnostic),
    /// An expression failed as it ran (the expression, the span at fault).
    Eval(Diagnostic),
    /// A YAML or JSON document (an environment, values) did not read; the
    /// message starts with the line:column in the document.
    Document(String),
    /// A Windsor project did not load, or a context did not render.
    Windsor(windsor::Errors),
    /// A Bluelink blueprint did not load, or did not render.
    Bluelink(bluelink::Errors),
}

/// One problem of an [`Error`], where it is: the fields a host shows or
/// matches on without parsing a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem<'e> {
    /// The file (Windsor: relative to the project root; Bluelink: as named).
    pub file: Option<&'e str>,
    /// The YAML path of the value at fault (`terraform[cluster].inputs.x`,
    /// `resources.fn.spec.timeout`).
    pub path: Option<&'e str>,
    /// The line, from 1: in the file, or in the expression when there is
    /// no file.
    pub line: Option<usize>,
    /// The column in characters, from 1.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: &'e str,
}

impl Error {
    /// Every problem, in the order they were found.
    pub fn problems(&self) -> Vec<Problem<'_>> {
        match self {
            Error::Compile(d) | Error::Eval(d) => {
                let (line, column) = d.line_col();
                vec![Problem {
                    file: None,
                    path: d.origin.as_deref(),
                    line: Some(line),
                    column: Some(column),
                    message: &d.message,
                }]
            }
            Error::Document(message) => {
                let (line, column, message) = leading_place(message);
                vec![Problem {
                    file: None,
                    path: None,
                    line,
                    column,
                    message,
                }]
            }
            Error::Windsor(errors) => errors
                .0
                .iter()
                .map(|e| Problem {
                    file: e.file.as_deref(),
                    path: Some(e.at.as_str()).filter(|p| !p.is_empty()),
                    line: e.pos.map(|p| p.0),
                    column: e.pos.map(|p| p.1),
                    message: &e.message,
                })
                .collect(),
            Error::Bluelink(errors) => errors
                .0
                .iter()
                .map(|e| {
                    let known = e.at.line > 0;
                    Problem {
                        file: Some(e.file.as_str()),
                        path: Some(e.path.as_str()).filter(|p| !p.is_empty()),
                        line: known.then_some(e.at.line as usize),
                        column: known.then_some(e.at.col as usize),
                        message: &e.message,
                    }
                })
                .collect(),
        }
    }
}

/// A document reader's message is `line:column: what`; the place split off.
fn leading_place(message: &str) -> (Option<usize>, Option<usize>, &str) {
    let mut parts = message.splitn(3, ':');
    let place = (parts.next(), parts.next(), parts.next());
    if let (Some(line), Some(column), Some(rest)) = place
        && let (Ok(line), Ok(column)) = (line.parse(), column.parse())
    {
        return (Some(line), Some(column), rest.trim_start());
    }
    (None, None, message)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Compile(d) | Error::Eval(d) => write!(f, "{d}"),
            Error::Document(message) => f.write_str(message),
            Error::Windsor(errors) => write!(f, "{errors}"),
            Error::Bluelink(errors) => write!(f, "{errors}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<windsor::Errors> for Error {
    fn from(errors: windsor::Errors) -> Error {
        Error::Windsor(errors)
    }
}

impl From<bluelink::Errors> for Error {
    fn from(errors: bluelink::Errors) -> Error {
        Error::Bluelink(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_message_gives_up_its_place() {
        assert_eq!(
            leading_place("3:7: did not find expected key"),
            (Some(3), Some(7), "did not find expected key")
        );
        assert_eq!(leading_place("not a mapping"), (None, None, "not a mapping"));
        assert_eq!(leading_place("a:b: c"), (None, None, "a:b: c"));
    }
}
