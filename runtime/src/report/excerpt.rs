//! Short excerpts of source text for messages: an expression can be one
//! line of megabytes, and a message should still fit on a screen. Lengths
//! are counted in characters, and text is only ever cut between them.

pub use super::headline::{headline, place};
use std::borrow::Cow;

/// The most characters of source a message shows in one piece.
pub const WIDTH: usize = 100;

/// Marks where an excerpt was cut.
pub const CUT: char = '…';

/// A part of one line shown around a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window<'s> {
    /// The characters shown.
    pub text: &'s str,
    /// Whether characters before `text` were left out.
    pub cut_before: bool,
    /// Whether characters after `text` were left out.
    pub cut_after: bool,
    /// How many characters of the line come before `text`.
    pub skipped: usize,
}

impl Window<'_> {
    /// Where character `col` (0-based, in the whole line) is in the
    /// window as printed: after the `…` that marks a cut start.
    pub fn column(&self, col: usize) -> usize {
        usize::from(self.cut_before) + col.saturating_sub(self.skipped)
    }

    /// How many of the characters from `col` on, up to `width` of them,
    /// the window shows.
    pub fn visible(&self, col: usize, width: usize) -> usize {
        let end = self.skipped + self.text.chars().count();
        width.min(end.saturating_sub(col))
    }
}

impl std::fmt::Display for Window<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.cut_before {
            write!(f, "{CUT}")?;
        }
        f.write_str(self.text)?;
        if self.cut_after {
            write!(f, "{CUT}")?;
        }
        Ok(())
    }
}

/// At most [`WIDTH`] characters of `line` around character `col` (0-based):
/// the whole line when it is short enough, else a window that has `col`
/// near its middle, or as much of the line's end as fits when `col` is near it.
///
/// ```
/// use bpvm_runtime::excerpt::window;
/// let line = "x".repeat(500) + "^" + &"y".repeat(500);
/// let w = window(&line, 500);
/// assert_eq!(w.text.chars().count(), 100);
/// assert_eq!(w.to_string().chars().nth(w.column(500)), Some('^'));
/// ```
pub fn window(line: &str, col: usize) -> Window<'_> {
    let len = line.chars().count();
    if len <= WIDTH {
        return Window {
            text: line,
            cut_before: false,
            cut_after: false,
            skipped: 0,
        };
    }
    let end = (col.min(len).saturating_sub(WIDTH / 2) + WIDTH).min(len);
    let start = end - WIDTH;
    Window {
        text: chars(line, start, end),
        cut_before: start > 0,
        cut_after: end < len,
        skipped: start,
    }
}

/// Line `line` of a file, `text`, under a gutter, with a caret under
/// `width` characters from column `col` (1-based): the excerpt every
/// message with a place in a file shows. A tab is shown as one space, so
/// that the caret stays under its character; a long line as a window
/// around the caret.
///
/// ```
/// use bpvm_runtime::excerpt::snippet;
/// assert_eq!(snippet("  a: ${x +}", 3, 11, 1), "  |\n3 |   a: ${x +}\n  |           ^\n");
/// ```
pub fn snippet(text: &str, line: usize, col: usize, width: usize) -> String {
    let text = text.trim_end_matches(['\n', '\r']).replace('\t', " ");
    let gutter = " ".repeat(line.to_string().len());
    let col = col.saturating_sub(1);
    let shown = window(&text, col);
    let width = shown.visible(col, width).max(1);
    format!(
        "{gutter} |\n{line} | {shown}\n{gutter} | {}{}\n",
        " ".repeat(shown.column(col)),
        "^".repeat(width)
    )
}

/// `text` for quoting in a message: as it is when it has at most
/// [`WIDTH`] characters, else its start and end around a `…`.
///
/// ```
/// use bpvm_runtime::excerpt::clip;
/// assert_eq!(clip("a.b.c"), "a.b.c");
/// let long = format!("values{}", ".b".repeat(1000));
/// assert_eq!(clip(&long), format!("values{}…{}", ".b".repeat(22), ".b".repeat(25)));
/// ```
pub fn clip(text: &str) -> Cow<'_, str> {
    // Looks at no more than WIDTH characters from either end, however
    // long `text` is.
    if text.char_indices().nth(WIDTH).is_none() {
        return Cow::Borrowed(text);
    }
    let half = WIDTH / 2;
    let head = text.char_indices().nth(half).map_or(text.len(), |(i, _)| i);
    let tail = text.char_indices().nth_back(half - 1).map_or(0, |(i, _)| i);
    Cow::Owned(format!("{}{CUT}{}", &text[..head], &text[tail..]))
}

/// Characters `from..to` of `s`.
fn chars(s: &str, from: usize, to: usize) -> &str {
    let mut at = s.char_indices().map(|(i, _)| i).chain([s.len()]);
    let start = at.nth(from).unwrap_or(s.len());
    let end = if to > from {
        at.nth(to - from - 1).unwrap_or(s.len())
    } else {
        start
    };
    &s[start..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_whole() {
        let w = window("a + b", 4);
        assert_eq!((w.to_string().as_str(), w.column(4)), ("a + b", 4));
    }

    #[test]
    fn a_caret_near_either_end_sees_that_end() {
        let line = "é".repeat(300);
        let start = window(&line, 3);
        assert!(!start.cut_before && start.cut_after);
        assert_eq!(start.column(3), 3);
        let end = window(&line, 299);
        assert!(end.cut_before && !end.cut_after);
        assert_eq!(end.to_string().chars().count(), WIDTH + 1);
        assert_eq!(end.column(299), WIDTH);
        assert_eq!(end.visible(299, 5), 1);
    }

    #[test]
    fn cuts_fall_between_characters() {
        let line: String = "aé😀".repeat(100);
        for col in [0, 1, 50, 150, 299, 400] {
            let w = window(&line, col);
            assert!(w.text.chars().count() == WIDTH, "{col}");
            if col < 300 {
                let shown = w.to_string();
                let at = shown.chars().nth(w.column(col));
                assert_eq!(at, line.chars().nth(col), "{col}");
            }
        }
        assert_eq!(clip(&line).chars().count(), WIDTH + 1);
    }
}
