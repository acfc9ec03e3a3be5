//! Errors that point into an expression: a message, the expression's text,
//! and the byte span at fault, printed with line:column and a caret.

use crate::report::excerpt;
use std::fmt;

/// A compile or evaluation error located in an expression's source.
///
/// ```
/// use bpvm_runtime::Diagnostic;
/// let d = Diagnostic::new("unexpected ')'", "a + )", 4, 5);
/// assert_eq!(d.line_col(), (1, 5));
/// assert_eq!(d.to_string(), "1:5: unexpected ')'\n  |\n1 | a + )\n  |     ^\n");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    /// What went wrong.
    pub message: String,
    /// The whole expression (or template) text.
    pub source: String,
    /// Byte offset where the fault starts.
    pub start: usize,
    /// Byte offset where it ends (exclusive; may equal `start`).
    pub end: usize,
    /// Where the expression came from (`file: yaml.path`), when known.
    pub origin: Option<String>,
}

impl Diagnostic {
    /// A diagnostic for `source[start..end]`.
    pub fn new(message: impl Into<String>, source: &str, start: usize, end: usize) -> Diagnostic {
        let start = floor_char(source, start.min(source.len()));
        let end = floor_char(source, end.clamp(start, source.len()));
        Diagnostic {
            message: message.into(),
            source: source.to_string(),
            start,
            end,
            origin: None,
        }
    }

    /// Adds where the expression came from.
    pub fn with_origin(mut self, origin: impl Into<String>) -> Diagnostic {
        self.origin = Some(origin.into());
        self
    }

    /// 1-based line and column (in characters) of the start.
    pub fn line_col(&self) -> (usize, usize) {
        let before = &self.source[..self.start];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (line, col) = self.line_col();
        if let Some(origin) = &self.origin {
            write!(f, "{origin}: ")?;
        }
        writeln!(f, "{line}:{col}: {}", self.message)?;
        let text = self.source.lines().nth(line - 1).unwrap_or("");
        let gutter = line.to_string().len();
        let pad = " ".repeat(gutter);
        writeln!(f, "{pad} |")?;
        // A long line is shown as a window around the caret.
        let shown = excerpt::window(text, col - 1);
        writeln!(f, "{line} | {shown}")?;
        let line_start = self.source[..self.start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = line_start + text.len();
        let width = self.source[self.start..self.end.min(line_end).max(self.start)]
            .chars()
            .count();
        let width = shown.visible(col - 1, width).max(1);
        writeln!(f, "{pad} | {}{}", " ".repeat(shown.column(col - 1)), "^".repeat(width))
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_at_later_lines_in_characters() {
        let d = Diagnostic::new("bad", "a &&\n  é + x", 10, 11);
        assert_eq!(d.line_col(), (2, 5));
        assert!(d.to_string().ends_with("2 |   é + x\n  |     ^\n"), "{d}");
    }

    #[test]
    fn a_long_line_shows_a_window_around_the_caret() {
        let src = format!("{}é + x{}", "(".repeat(5000), ")".repeat(5000));
        let d = Diagnostic::new("bad", &src, 5000, 5002);
        assert_eq!(d.line_col(), (1, 5001));
        let shown = format!("…{}é + x{}…", "(".repeat(50), ")".repeat(45));
        let caret = format!("{}^", " ".repeat(51));
        assert_eq!(d.to_string(), format!("1:5001: bad\n  |\n1 | {shown}\n  | {caret}\n"));
    }

    #[test]
    fn an_underline_stops_at_the_window() {
        let src = "x".repeat(300);
        let d = Diagnostic::new("bad", &src, 10, 300);
        let caret_line = d.to_string().lines().last().unwrap().to_string();
        assert_eq!(caret_line, format!("  | {}{}", " ".repeat(10), "^".repeat(90)));
    }

    #[test]
    fn spans_past_the_end_are_clamped() {
        let d = Diagnostic::new("unexpected end", "f(a", 3, 9);
        assert_eq!(d.line_col(), (1, 4));
        assert!(d.to_string().contains("1 | f(a\n  |    ^"));
    }
}
