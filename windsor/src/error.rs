//! Errors that name their place: the file, the YAML path of the value,
//! and one line:column in the file — for an expression's error, of the
//! part of the expression at fault.

use bpvm_runtime::Diagnostic;
use std::fmt;

/// One problem with a project or a render.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    /// The file, relative to the project root, when the problem is in one.
    pub file: Option<String>,
    /// The file as messages print it: as it can be opened from where bpvm
    /// runs (the project's folder as given joined with `file`), set when
    /// the error is placed in its file; `file` until then. (Boxed: an
    /// error stays small enough to return by value.)
    pub shown: Option<Box<String>>,
    /// The YAML path of the value (`terraform[cluster].inputs.endpoint`).
    pub at: String,
    /// What is wrong (an expression's diagnostic, with its caret, included).
    pub message: String,
    /// The line and column of `at` in the file, once looked up (when the
    /// project's errors are reported): for an expression's error, of the
    /// part at fault.
    pub pos: Option<(usize, usize)>,
    /// An expression's error: the expression and the span at fault in it
    /// (its message is `message`).
    pub expr: Option<Box<Diagnostic>>,
    /// The file's line at `pos` and how many characters from `pos` are at
    /// fault, for the excerpt under the message.
    pub source: Option<Box<(String, usize)>>,
}

/// Why something failed: a text, or an expression's error (kept whole,
/// so that its place can be found in the file).
///
/// ```
/// use bpvm_windsor::Why;
/// let d = bpvm_runtime::Diagnostic::new("expected ')'", "f(a", 3, 3);
/// assert_eq!(Why::from(d).to_string(), "1:4: expected ')'\n  |\n1 | f(a\n  |    ^\n");
/// assert_eq!(Why::from("no such file").to_string(), "no such file");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Why {
    /// What is wrong, said in words.
    Text(String),
    /// An expression's error.
    Expression(Box<Diagnostic>),
}

impl From<String> for Why {
    fn from(s: String) -> Why {
        Why::Text(s)
    }
}

impl From<&str> for Why {
    fn from(s: &str) -> Why {
        Why::Text(s.to_string())
    }
}

impl From<Diagnostic> for Why {
    fn from(d: Diagnostic) -> Why {
        Why::Expression(Box::new(d))
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Why::Text(s) => f.write_str(s),
            Why::Expression(d) => write!(f, "{d}"),
        }
    }
}

impl Error {
    /// A problem at `at` in `file`: a message, or an expression's error.
    pub fn new(file: Option<&str>, at: impl Into<String>, why: impl Into<Why>) -> Error {
        let (message, expr) = match why.into() {
            Why::Text(message) => (message, None),
            Why::Expression(d) => (d.message.clone(), Some(d)),
        };
        Error {
            file: file.map(str::to_string),
            shown: None,
            at: at.into(),
            message,
            pos: None,
            expr,
            source: None,
        }
    }

    /// A problem a reader of `text`, the file `file`, found: its message
    /// `what: line:column: why` (as YAML readers give them) placed at
    /// that line and column, the line under it.
    ///
    /// ```
    /// use bpvm_windsor::Error;
    /// let e = Error::in_text("a.yaml", "a: 1\n b: 2\n", "invalid YAML: 2:3: bad");
    /// assert_eq!(e.to_string(), "a.yaml:2:3: error: invalid YAML: bad\n  |\n2 |  b: 2\n  |   ^\n");
    /// ```
    pub fn in_text(file: &str, text: &str, message: &str) -> Error {
        let mut e = Error::new(Some(file), "", message);
        let (what, rest) = message.split_once(": ").unwrap_or(("", message));
        let mut parts = rest.splitn(3, ':');
        if let (Some(l), Some(c), Some(why)) = (parts.next(), parts.next(), parts.next())
            && let (Ok(line), Ok(column)) = (l.trim().parse::<usize>(), c.trim().parse::<usize>())
            && line > 0
        {
            e.message = format!("{what}: {}", why.trim_start());
            e.pos = Some((line, column.max(1)));
            e.source = text.lines().nth(line - 1).map(|t| Box::new((t.to_string(), 1)));
        }
        e
    }

    /// The message with, for an expression's error not placed in a file,
    /// the expression's own line:column and excerpt.
    pub fn why(&self) -> String {
        match (&self.expr, self.pos) {
            (Some(d), None) => d.to_string(),
            _ => self.message.clone(),
        }
    }
}

/// Looks up where in its file each error is (each file read once,
/// through the project's root): its YAML path's, or, for an expression's
/// error, that of the part of the expression at fault; for messages in
/// the `file:line:column: error: path: message` form with the file's line
/// under, the file as it can be opened from where bpvm runs.
pub fn locate(root: &bpvm_runtime::root::Root, errors: &mut Errors) {
    let mut texts = crate::texts::Texts::new(root);
    for e in errors.0.iter_mut() {
        let Some(file) = &e.file else { continue };
        if e.shown.is_none() {
            e.shown = Some(Box::new(root.shown(file)));
        }
        if e.pos.is_some() || e.at.is_empty() {
            continue;
        }
        let span = e
            .expr
            .as_ref()
            .map(|d| (d.source.as_str(), (d.start as u32, d.end as u32)));
        if let Some(spot) = texts.spot(file, &e.at, span) {
            e.pos = Some((spot.line, spot.column));
            // The file's line is shown for an expression's error, in the
            // place of the expression's own excerpt.
            if e.expr.is_some() {
                e.source = spot.source.map(|line| Box::new((line, spot.width)));
            }
        }
    }
}

/// `e` with its place in its file looked up, as [`locate`] does.
pub(crate) fn placed(root: &bpvm_runtime::root::Root, e: Error) -> Error {
    let mut errors = Errors::new(vec![e]);
    locate(root, &mut errors);
    errors.0.remove(0)
}

impl Error {
    /// The error as a command prints it: `file:line:column: severity:
    /// path: message` (see [`headline`](bpvm_runtime::excerpt::headline)),
    /// `tail` after the message, then the file's line with a caret.
    ///
    /// ```
    /// use bpvm_windsor::Error;
    /// let mut e = Error::new(Some("a.yaml"), "x", "odd");
    /// e.pos = Some((2, 3));
    /// assert_eq!(e.printed("warning", ""), "a.yaml:2:3: warning: x: odd");
    /// assert_eq!(Error::new(None, "", "no project").printed("error", ""), "error: no project");
    /// ```
    pub fn printed(&self, severity: &str, tail: &str) -> String {
        let file = self.shown.as_deref().map(String::as_str).or(self.file.as_deref());
        let out = bpvm_runtime::excerpt::headline(file, self.pos, severity, &(self.message_at() + tail));
        self.with_excerpt(out)
    }

    /// The error inside another message (a test case's failure): as
    /// [`Error::printed`], without a severity.
    ///
    /// ```
    /// use bpvm_windsor::Error;
    /// let mut e = Error::new(Some("a.yaml"), "x", "odd");
    /// e.pos = Some((2, 3));
    /// assert_eq!(e.described(), "a.yaml:2:3: x: odd");
    /// ```
    pub fn described(&self) -> String {
        let file = self.shown.as_deref().map(String::as_str).or(self.file.as_deref());
        self.with_excerpt(bpvm_runtime::excerpt::place(file, self.pos) + &self.message_at())
    }

    /// `path: message`, or the message alone.
    fn message_at(&self) -> String {
        match self.at.is_empty() {
            true => self.why(),
            false => format!("{}: {}", bpvm_runtime::excerpt::clip(&self.at), self.why()),
        }
    }

    /// `head`, then the file's line with a caret under the part at fault.
    fn with_excerpt(&self, mut out: String) -> String {
        if let (Some((text, width)), Some((line, col))) = (self.source.as_deref(), self.pos) {
            out.push('\n');
            out.push_str(&bpvm_runtime::excerpt::snippet(text, line, col, *width));
        }
        out
    }
}

/// The error as a command prints it: `file:line:column: error: path:
/// message` and the file's line under it ([`Error::printed`]); a list of
/// them, [`Errors`], one after another.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.printed("error", ""))
    }
}

impl std::error::Error for Error {}

/// A warning as a command prints it: `file:line:column: warning: …`, or
/// with `strict` (`--strict`) `file:line:column: error: … (an error by
/// --strict)` — the one wording every command and the batch give it.
///
/// ```
/// use bpvm_windsor::{Error, warning_line};
/// let mut w = Error::new(Some("x.yaml"), "a", "odd");
/// w.pos = Some((1, 1));
/// assert_eq!(warning_line(&w, false), "x.yaml:1:1: warning: a: odd");
/// assert_eq!(warning_line(&w, true), "x.yaml:1:1: error: a: odd (an error by --strict)");
/// ```
pub fn warning_line(warning: &Error, strict: bool) -> String {
    match strict {
        true => warning.printed("error", " (an error by --strict)"),
        false => warning.printed("warning", ""),
    }
}

/// Every problem found, so that one run reports them all.
pub type Errors = bpvm_runtime::Problems<Error>;
