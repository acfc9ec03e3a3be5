//! A file read for navigation, through the file layer (so an open
//! document's unsaved text is what is read), and places in it as the
//! protocol's locations.

use crate::text::Lines;
use crate::text::open::uri_of;
use bpvm::runtime::root::Root;
use lsp_types::{Location, Range};
use std::path::PathBuf;

/// A file of a template, read.
///
/// ```
/// use bpvm_lsp::navigate::Source;
/// let source = Source::new("/p/values.yaml".into(), "a:\n  é: 1\n".into());
/// let span = source.key_at((2, 3));
/// assert_eq!(&source.text[span.0..span.1], "é");
/// let at = source.location(span).unwrap();
/// assert_eq!(at.uri.as_str(), "file:///p/values.yaml");
/// assert_eq!((at.range.start.character, at.range.end.character), (2, 3));
/// ```
#[derive(Debug, Clone)]
pub struct Source {
    /// The file, absolute.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// Its line starts.
    pub lines: Lines,
}

impl Source {
    /// The file `file` (relative to `root`'s folder, or absolute beneath
    /// it); `None` when the file layer refuses it or it cannot be read.
    pub fn read(root: &Root, file: &str) -> Option<Source> {
        let text = root.read_string(root.dir(), file).ok()?;
        Some(Source::new(root.dir().join(file), text))
    }

    /// The file at `path` holding `text`.
    pub fn new(path: PathBuf, text: String) -> Source {
        let lines = Lines::new(&text);
        Source { path, text, lines }
    }

    /// The location of byte span `span`.
    pub fn location(&self, span: (usize, usize)) -> Option<Location> {
        let range = Range::new(
            self.lines.position(&self.text, span.0),
            self.lines.position(&self.text, span.1),
        );
        Some(Location::new(uri_of(&self.path)?, range))
    }

    /// The byte span of the key written at 1-based line and character
    /// column `at`: quoted, to its closing quote; else to the `:`, a
    /// space, or the line's end.
    pub fn key_at(&self, at: (usize, usize)) -> (usize, usize) {
        let position = self.lines.at_column(&self.text, at.0, at.1);
        let start = self.lines.offset(&self.text, position).unwrap_or(self.text.len());
        let rest = &self.text[start..];
        let len = match rest.chars().next() {
            Some(q @ ('"' | '\'')) => rest[1..].find(q).map_or(1, |i| i + 2),
            _ => rest.find([':', ' ', '\t', '\r', '\n', ',', '}']).unwrap_or(rest.len()),
        };
        (start, start + len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_end_where_their_text_does() {
        let text = "a:\n  😀b: 1\n  \"c d\": 2\n  {e, f: 3}\nlast";
        let source = Source::new("/p/x.yaml".into(), text.to_string());
        let key = |line, col| {
            let (from, to) = source.key_at((line, col));
            &text[from..to]
        };
        assert_eq!(key(2, 3), "😀b");
        assert_eq!(key(3, 3), "\"c d\"");
        assert_eq!(key(4, 4), "e");
        assert_eq!(key(5, 1), "last");
        // Past the last line: its start.
        assert_eq!(key(9, 1), "last");
        let at = source.location(source.key_at((2, 3))).unwrap();
        assert_eq!(
            at.range,
            Range::new(lsp_types::Position::new(1, 2), lsp_types::Position::new(1, 5))
        );
    }
}
