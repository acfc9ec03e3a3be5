//! Where a problem points in the blueprint's text (a check's finding, a
//! render's error): at the part of a string a substitution's problem is
//! about, when the string up to there is written on one line as it reads
//! (so the offset is sure), else at the string; with the line's text, for
//! the excerpt under the message.

use crate::key_table::KeyTable;
use crate::lang::{self, Origins};
use crate::{Error, Pos};
use bpvm_compiler::ast::Span;
use std::path::Path;

/// A line:column, how many characters from there, and the line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Place {
    pub line: usize,
    pub column: usize,
    pub width: usize,
    pub source: Option<String>,
}

/// The lines of a blueprint file, and, for a `.bp` file, where the
/// pieces of its lowered substitution text were written; the text itself.
pub(crate) struct Lines<'t>(Vec<&'t str>, Origins, &'t str);

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        Lines(text.lines().collect(), Origins::default(), text)
    }

    /// The lines of `text`, the file at `path`: read in the `.bp`
    /// language again for a `.bp` file, for where its substitutions'
    /// pieces were written (the loader keeps only the tree).
    pub fn of_file(text: &'t str, path: &Path) -> Lines<'t> {
        let mut lines = Lines::new(text);
        if lang::is_bp(&path.to_string_lossy()) {
            if let Ok((_, origins)) = lang::read_keys(text, &mut KeyTable::default()) {
                lines.1 = origins;
            }
        }
        lines
    }

    /// Gives each of `errors` in `file` (the file these are the lines of)
    /// that has a line and no excerpt yet the line it names. A message
    /// that shows its own excerpt (an expression's, when its place in the
    /// file is not known) gets none.
    pub fn excerpts(&self, errors: &mut [Error], file: &str) {
        for e in errors.iter_mut() {
            if e.file != file || e.source.is_some() || e.message.contains('\n') {
                continue;
            }
            e.source = self.get(e.at.line as usize).map(|l| Box::new((l.to_string(), 1)));
        }
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
    /// `at`: inside it, its quoting undone (as every command places a
    /// problem inside a string); `at` itself when the text there does not
    /// read as `written`.
    pub fn inside(&self, at: Pos, written: &str, span: Span) -> Place {
        self.placed(at, written, span).unwrap_or_else(|| self.at(at))
    }

    /// [`Lines::inside`], or `None` when the text at `at` does not read as
    /// `written`.
    pub fn placed(&self, at: Pos, written: &str, span: Span) -> Option<Place> {
        if let Some(from) = self.1.locate(at, span.0 as usize) {
            return Some(self.lowered(from, written, span));
        }
        let start = crate::inside::place(self.2, at, written, span.0 as usize)?;
        let mut place = self.at(start);
        if let Some(end) = crate::inside::place(self.2, at, written, span.1 as usize)
            && end.line == start.line
            && end.col > start.col
        {
            place.width = (end.col - start.col) as usize;
        }
        Some(place)
    }

    /// The place of `span` of substitution text lowered from `.bp`, at
    /// `from`, the start of the expression it was lowered from: as wide
    /// as the part when it is written there as it reads (a reference, a
    /// call), else one character.
    fn lowered(&self, from: Pos, written: &str, span: Span) -> Place {
        let mut place = self.at(from);
        let part = written.get(span.0 as usize..span.1 as usize).unwrap_or("");
        let rest = self.get(from.line as usize).and_then(|l| {
            let (b, _) = l.char_indices().nth((from.col as usize).checked_sub(1)?)?;
            Some(&l[b..])
        });
        if !part.is_empty() && rest.is_some_and(|r| r.starts_with(part)) {
            place.width = part.chars().count();
        }
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
    fn a_bp_expression_points_where_it_was_written() {
        let text = "version \"2025-11-02\"\nresource fn: aws/lambda/function {\n  spec {\n    size = len(variables.debug)\n  }\n}\n";
        let lines = Lines::of_file(text, Path::new("app.bp"));
        // Lowered to `${len(variables.debug)}` at the start of `len(`.
        let at = Pos { line: 4, col: 12 };
        let p = lines.inside(at, "${len(variables.debug)}", (6, 21));
        assert_eq!((p.line, p.column, p.width), (4, 16, 15));
        let p = lines.inside(at, "${len(variables.debug)}", (2, 22));
        assert_eq!((p.line, p.column, p.width), (4, 12, 20));
    }

    #[test]
    fn quoting_and_folding_are_undone() {
        let lines = Lines::new(TEXT);
        // Read as `it's`, written `it''s`.
        let p = lines.inside(Pos { line: 4, col: 6 }, "it's ${values.f}", (7, 15));
        assert_eq!((p.line, p.column, p.width), (4, 15, 8));
        // Not what is written there: the value's start.
        let p = lines.inside(Pos { line: 2, col: 6 }, "x-${values.b} ${values.c}", (16, 24));
        assert_eq!((p.line, p.column, p.width), (2, 6, 1));
        // A position past the end of the text.
        let p = lines.inside(Pos { line: 9, col: 1 }, "${values.f}", (2, 10));
        assert_eq!((p.line, p.column, p.source), (9, 1, None));
    }
}
