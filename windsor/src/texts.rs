//! A project's files read once each, to find where a YAML path is in them
//! (for messages, and for `explain`), and the one way every message finds
//! where in its file an expression's problem is.

use bpvm_runtime::locate::Located;
use bpvm_runtime::root::Root;
use bpvm_runtime::scalar;

/// Where in a file a problem is: its line and column (from 1), how many
/// characters from there are at fault, and the line's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Spot {
    pub line: usize,
    pub column: usize,
    pub width: usize,
    pub source: Option<String>,
}

/// Where the problem at `path` of the YAML document `text` (read as
/// `doc`) is. With `expr`, an expression (written in the string value at
/// `path`) and the byte span at fault in it: the place of that span, the
/// string's quoting, escapes and folded lines undone; else, or when the
/// expression is not the string's text, the key (or item) at `path`.
pub(crate) fn spot(text: &str, doc: &Located, path: &str, expr: Option<(&str, (u32, u32))>) -> Option<Spot> {
    let line_text = |l: usize| text.lines().nth(l.saturating_sub(1)).map(str::to_string);
    if let Some((src, span)) = expr
        && let Some((start, value)) = doc.value(path)
        && let Some(base) = value.find(src).filter(|_| !src.is_empty() || value.is_empty())
        && let Some((line, column)) = scalar::place(text, start, value, base + span.0 as usize)
    {
        let width = match scalar::place(text, start, value, base + span.1 as usize) {
            Some((l, c)) if l == line && c > column => c - column,
            _ => 1,
        };
        let source = line_text(line);
        return Some(Spot {
            line,
            column,
            width,
            source,
        });
    }
    let (line, column) = doc.find(path)?;
    Some(Spot {
        line,
        column,
        width: 1,
        source: line_text(line),
    })
}

/// Files of a project, each read through its root the first time a path
/// in it is asked for.
pub(crate) struct Texts<'r> {
    root: &'r Root,
    /// By file: its text and document, or `None` when it could not be read.
    read: Vec<(String, Option<(String, Located)>)>,
}

impl<'r> Texts<'r> {
    pub(crate) fn new(root: &'r Root) -> Texts<'r> {
        Texts { root, read: Vec::new() }
    }

    /// The text and document of `file` (relative to the root).
    fn read(&mut self, file: &str) -> Option<&(String, Located)> {
        let i = match self.read.iter().position(|(f, _)| f == file) {
            Some(i) => i,
            None => {
                let read = self.root.read_string(self.root.dir(), file).ok().and_then(|text| {
                    let doc = Located::new(&text)?;
                    Some((text, doc))
                });
                self.read.push((file.to_string(), read));
                self.read.len() - 1
            }
        };
        self.read[i].1.as_ref()
    }

    /// `file` (relative to the root) as messages print it.
    pub(crate) fn shown(&self, file: &str) -> String {
        self.root.shown(file)
    }

    /// The line and column of `path` in `file` (relative to the root).
    pub(crate) fn locate(&mut self, file: &str, path: &str) -> Option<(usize, usize)> {
        self.read(file)?.1.find(path)
    }

    /// [`spot`] in `file` (relative to the root).
    pub(crate) fn spot(&mut self, file: &str, path: &str, expr: Option<(&str, (u32, u32))>) -> Option<Spot> {
        let (text, doc) = self.read(file)?;
        spot(text, doc, path, expr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, path: &str, src: &str, span: (u32, u32)) -> (usize, usize, usize) {
        let doc = Located::new(text).unwrap();
        let s = spot(text, &doc, path, Some((src, span))).unwrap();
        (s.line, s.column, s.width)
    }

    #[test]
    fn a_span_lands_on_its_text_however_the_value_is_written() {
        let text = "when: provider == 'aws'\nx:\n  y: \"${a.b}\"\n";
        assert_eq!(at(text, "when", "provider == 'aws'", (12, 17)), (1, 19, 5));
        assert_eq!(at(text, "x.y", "${a.b}", (2, 5)), (3, 9, 3));
        // Not the value's text: the key's place.
        assert_eq!(at(text, "x.y", "other", (0, 1)), (3, 3, 1));
        // A folded block scalar.
        let text = "when: >-\n  a != null &&\n  b != null\n";
        assert_eq!(at(text, "when", "a != null && b != null", (18, 22)), (3, 8, 4));
        // Quoted with escapes.
        let text = "x: \"${a == \\\"b\\\" ? null : 1}\"\ny: >-\n  null\n";
        assert_eq!(at(text, "x", "${a == \"b\" ? null : 1}", (13, 17)), (1, 20, 4));
    }
}
