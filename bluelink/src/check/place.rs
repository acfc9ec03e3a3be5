//! Where a finding points in the blueprint's text: at the part of a
//! string a substitution's issue is about, when the string up to there is
//! written on one line as it reads (so the offset is sure), else at the
//! string.

use crate::Pos;
use bpvm_compiler::ast::Span;

/// A line:column, how many characters from there, and the line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Place {
    pub line: usize,
    pub column: usize,
    pub width: usize,
    pub source: Option<String>,
}

/// The lines of a blueprint file.
pub(super) struct Lines<'t>(Vec<&'t str>);

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines(text.lines().collect())
    }

    /// The text of 1-based line `n`.
    pub fn get(&self, n: usize) -> Option<&'t str> {
        n.checked_sub(1).and_then(|i| self.0.get(i)).copied()
    }

    /// The place `at` (a value's start), pointing at nothing inside it.
    pub fn at(&self, at: Pos) -> Place {
        Place {
            line: at.line as usize,
            column: at.col as usize,
            width: 1,
            source: self.get(at.line as usize).map(str::to_string),
        }
    }

    /// The place of `span` of the string `written`, whose value starts at
    /// `at`: inside it when the line, from `at`, holds `written` as it is
    /// up to the span's end (plain, or right after an opening quote); else
    /// `at` itself.
    pub fn inside(&self, at: Pos, written: &str, span: Span) -> Place {
        let mut place = self.at(at);
        let (Some(line), Some(before), Some(part)) = (
            self.get(at.line as usize),
            written.get(..span.0 as usize),
            written.get(span.0 as usize..span.1 as usize),
        ) else {
            return place;
        };
        let Some(start) = at
            .col
            .checked_sub(1)
            .and_then(|c| line.char_indices().nth(c as usize))
            .map(|(b, _)| b)
        else {
            return place;
        };
        let rest = &line[start..];
        let quote = usize::from(rest.starts_with(['"', '\'']));
        // Up to the part's end, the string must be on this line as it
        // reads: what follows may be escaped or folded.
        let upto = &written[..span.1 as usize];
        if upto.contains('\n') || !rest[quote..].starts_with(upto) {
            return place;
        }
        place.column += quote + before.chars().count();
        place.width = part.chars().count().max(1);
        place
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "spec:\n  a: x-${values.b}\n  c: \"${len(values.d)}\"\n  e: 'it''s ${values.f}'\n";

    #[test]
    fn a_plain_string_points_inside() {
        let lines = Lines::new(TEXT);
        let p = lines.inside(Pos { line: 2, col: 6 }, "x-${values.b}", (4, 12));
        assert_eq!((p.line, p.column, p.width), (2, 10, 8));
        assert_eq!(p.source.as_deref(), Some("  a: x-${values.b}"));
    }

    #[test]
    fn a_string_escaped_after_the_part_points_inside() {
        let text = "c: \"${join(values.d, \\\",\\\")}\"\n";
        let lines = Lines::new(text);
        let p = lines.inside(Pos { line: 1, col: 4 }, "${join(values.d, \",\")}", (7, 15));
        assert_eq!((p.line, p.column, p.width), (1, 12, 8));
    }

    #[test]
    fn a_quoted_string_points_inside_after_its_quote() {
        let lines = Lines::new(TEXT);
        let p = lines.inside(Pos { line: 3, col: 6 }, "${len(values.d)}", (2, 15));
        assert_eq!((p.line, p.column, p.width), (3, 9, 13));
    }

    #[test]
    fn a_string_written_otherwise_points_at_the_value() {
        let lines = Lines::new(TEXT);
        // Read as `it's`, written `it''s`: the offset cannot be trusted.
        let p = lines.inside(Pos { line: 4, col: 6 }, "it's ${values.f}", (7, 15));
        assert_eq!((p.line, p.column, p.width), (4, 6, 1));
        // Folded onto the next line before the part.
        let p = lines.inside(Pos { line: 2, col: 6 }, "x-${values.b} ${values.c}", (16, 24));
        assert_eq!((p.line, p.column, p.width), (2, 6, 1));
        // A position past the end of the text.
        let p = lines.inside(Pos { line: 9, col: 1 }, "${values.f}", (2, 10));
        assert_eq!((p.line, p.column, p.source), (9, 1, None));
    }
}
