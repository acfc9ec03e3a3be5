//! A text's line starts, for converting between the protocol's positions
//! (line, UTF-16 code unit) and bpvm's (byte offset; line and column in
//! characters, 1-based).

use lsp_types::Position;

/// Where each line of a text starts.
///
/// ```
/// use bpvm_lsp::text::Lines;
/// use lsp_types::Position;
/// let text = "a: é😀x\nb: 1\n";
/// let lines = Lines::new(text);
/// // `x` is byte 9: 'é' is 2 bytes and 1 UTF-16 unit, '😀' 4 bytes and 2 units.
/// assert_eq!(lines.position(text, 9), Position::new(0, 6));
/// assert_eq!(lines.offset(text, Position::new(0, 6)), Some(9));
/// assert_eq!(lines.at_column(text, 1, 6), Position::new(0, 6));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Lines {
    /// The byte offset of each line's first byte.
    starts: Vec<usize>,
}

impl Lines {
    /// The lines of `text`: a line ends after each `\n`.
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// How many lines the text has (a text ending in `\n` has an empty
    /// last line).
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The text of line `line` (from 0) without its line break; empty past
    /// the end.
    pub fn line<'t>(&self, text: &'t str, line: usize) -> &'t str {
        let Some(&start) = self.starts.get(line) else {
            return "";
        };
        let end = self.starts.get(line + 1).map_or(text.len(), |&e| e - 1);
        let end = end.min(text.len()).max(start);
        text.get(start..end).map_or("", |l| l.strip_suffix('\r').unwrap_or(l))
    }

    /// The position of byte `offset` of `text`; an offset past the end is
    /// the end, and one inside a character is that character's start.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let before = (start..=offset)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(start);
        let units = text[start..before].chars().map(char::len_utf16).sum::<usize>();
        Position::new(line as u32, units as u32)
    }

    /// The byte offset of `position` in `text`; `None` past the last line.
    /// A column past the line's end is its end, and one inside a
    /// character's two UTF-16 units is that character's start.
    pub fn offset(&self, text: &str, position: Position) -> Option<usize> {
        let line = position.line as usize;
        let start = *self.starts.get(line)?;
        let content = self.line(text, line);
        let mut units = 0;
        for (i, c) in content.char_indices() {
            units += c.len_utf16();
            if units > position.character as usize {
                return Some(start + i);
            }
        }
        Some(start + content.len())
    }

    /// The position of 1-based `line` and `column` in characters (how a
    /// finding gives its place); 0 for either is the line's or the
    /// text's start.
    pub fn at_column(&self, text: &str, line: usize, column: usize) -> Position {
        let Some(index) = line.checked_sub(1) else {
            return Position::new(0, 0);
        };
        let content = self.line(text, index);
        let units = content
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf16)
            .sum::<usize>();
        Position::new(index.min(self.count() - 1) as u32, units as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (text, byte offset, position): each one converted both ways.
    const ROUND_TRIPS: &[(&str, usize, (u32, u32))] = &[
        ("abc", 0, (0, 0)),
        ("abc", 3, (0, 3)),
        ("a\nb", 2, (1, 0)),
        ("a\nb\n", 4, (2, 0)),
        ("é=1", 2, (0, 1)),
        ("x: 😀y", 7, (0, 5)),
        ("日本\n語x", 10, (1, 1)),
        ("a\r\nb", 3, (1, 0)),
    ];

    #[test]
    fn offsets_and_positions_round_trip() {
        for &(text, offset, (line, character)) in ROUND_TRIPS {
            let lines = Lines::new(text);
            let position = Position::new(line, character);
            assert_eq!(lines.position(text, offset), position, "{text:?} at {offset}");
            assert_eq!(lines.offset(text, position), Some(offset), "{text:?} at {position:?}");
        }
    }

    #[test]
    fn positions_outside_the_text_are_clamped_or_none() {
        let text = "é😀\nab";
        let lines = Lines::new(text);
        assert_eq!(lines.offset(text, Position::new(0, 99)), Some(6));
        // Inside the emoji's surrogate pair: the emoji's start.
        assert_eq!(lines.offset(text, Position::new(0, 2)), Some(2));
        assert_eq!(lines.offset(text, Position::new(5, 0)), None);
        assert_eq!(lines.position(text, 99), Position::new(1, 2));
        // Inside 'é': its start.
        assert_eq!(lines.position(text, 1), Position::new(0, 0));
    }

    #[test]
    fn character_columns_become_utf16_units() {
        let text = "k: '😀 ${a.b}'\n";
        let lines = Lines::new(text);
        // Column 8 (characters) is `$`; before it the emoji counts twice.
        assert_eq!(lines.at_column(text, 1, 8), Position::new(0, 8));
        assert_eq!(lines.at_column(text, 0, 0), Position::new(0, 0));
        assert_eq!(lines.at_column(text, 9, 3), Position::new(1, 0));
    }
}
