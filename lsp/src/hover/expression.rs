//! The expression under the cursor: a `${…}` on its line, or the
//! condition of a `when:` line.

use crate::text::Lines;
use lsp_types::{Position, Range};

/// An expression found in a document.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression {
    /// Its source, without `${` and `}` or quotes.
    pub source: String,
    /// Whether it is a `when:` condition.
    pub condition: bool,
    /// Where it is written (with `${` and `}`).
    pub range: Range,
}

/// The expression at `position` of `text`: the innermost `${…}` the
/// position is inside of on its line, else the condition of a `when:`
/// line the position is on.
///
/// ```
/// use bpvm_lsp::hover::expression_at;
/// use bpvm_lsp::text::Lines;
/// use lsp_types::Position;
/// let text = "when: provider == 'aws'\nx: 'é ${a.b ?? 1}'\n";
/// let lines = Lines::new(text);
/// let e = expression_at(text, &lines, Position::new(1, 8)).unwrap();
/// assert_eq!((e.source.as_str(), e.condition), ("a.b ?? 1", false));
/// let w = expression_at(text, &lines, Position::new(0, 2)).unwrap();
/// assert_eq!((w.source.as_str(), w.condition), ("provider == 'aws'", true));
/// assert!(expression_at(text, &lines, Position::new(1, 1)).is_none());
/// ```
pub fn expression_at(text: &str, lines: &Lines, position: Position) -> Option<Expression> {
    let line = lines.line(text, position.line as usize);
    let line_start = lines.offset(text, Position::new(position.line, 0))?;
    let at = lines.offset(text, position)? - line_start;
    if let Some((from, to)) = substitution_around(line, at) {
        let place = |i: usize| lines.position(text, line_start + i);
        return Some(Expression {
            source: line[from + 2..to - 1].trim().to_string(),
            condition: false,
            range: Range::new(place(from), place(to)),
        });
    }
    let indent = line.len() - line.trim_start().len();
    let rest = line.trim_start().strip_prefix("when:")?;
    let source = unquoted(rest.split(" #").next().unwrap_or(rest).trim());
    if source.is_empty() {
        return None;
    }
    let place = |i: usize| lines.position(text, line_start + i);
    Some(Expression {
        source: source.to_string(),
        condition: true,
        range: Range::new(place(indent), place(line.len())),
    })
}

/// The byte span of the innermost `${…}` of `line` around byte `at`
/// (`}` included), braces inside it counted.
fn substitution_around(line: &str, at: usize) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for (from, _) in line.match_indices("${") {
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in line[from + 1..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(from + 1 + i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(to) = end else { continue };
        if from <= at && at < to && best.is_none_or(|(f, _)| f < from) {
            best = Some((from, to));
        }
    }
    best
}

/// `text` without one pair of surrounding quotes.
fn unquoted(text: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return inner;
        }
    }
    text
}
