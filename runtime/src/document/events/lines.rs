//! Places in the text as the parser reports them.
//!
//! A [`Marker`] holds a line (from 1), a column and an index counted in
//! characters, and a byte offset; the scanner walks the text a line at a
//! time, so a line knows where it starts and whether its columns are bytes.

use saphyr_parser_bw::{Marker, Span};

/// One line of the text, without its `\n`.
#[derive(Clone, Copy)]
pub(super) struct Line<'t> {
    pub(super) text: &'t str,
    /// Line number, from 1.
    pub(super) number: usize,
    /// Byte offset of the line's first character.
    pub(super) start: usize,
    /// Characters before the line.
    pub(super) chars_before: usize,
    /// Every character is one byte, so columns are byte counts.
    pub(super) ascii: bool,
}

impl Line<'_> {
    /// The marker at byte `at` of the line (`at` on a character boundary).
    pub(super) fn mark(&self, at: usize) -> Marker {
        let col = if self.ascii {
            at
        } else {
            self.text.get(..at).map_or(at, |s| s.chars().count())
        };
        Marker::new(self.chars_before + col, self.number, col).with_byte_offset(Some(self.start + at))
    }

    /// An empty span at byte `at` of the line.
    pub(super) fn point(&self, at: usize) -> Span {
        Span::empty(self.mark(at))
    }

    /// The span of bytes `from..to` of the line.
    pub(super) fn span(&self, from: usize, to: usize) -> Span {
        Span::new(self.mark(from), self.mark(to))
    }

    /// The byte after the spaces from `at`, and after a comment if one
    /// follows them: where the parser's scanner stops once it has read an
    /// indicator. `None` for a `#` with no space before it, which the
    /// parser refuses.
    pub(super) fn skip_to_end(&self, at: usize) -> Option<usize> {
        let b = self.text.as_bytes();
        let mut i = at;
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        if b.get(i) == Some(&b'#') {
            if i == at {
                return None;
            }
            return Some(b.len());
        }
        Some(i)
    }

    /// The byte after the spaces from `at`.
    pub(super) fn skip_spaces(&self, at: usize) -> usize {
        let b = self.text.as_bytes();
        let mut i = at;
        while b.get(i) == Some(&b' ') {
            i += 1;
        }
        i
    }

    /// Nothing but spaces and perhaps a comment from `at` on.
    pub(super) fn ends_at(&self, at: usize) -> bool {
        self.skip_to_end(at) == Some(self.text.len())
    }
}

/// Whether the scanner may read a line holding `text`: no tabs, carriage
/// returns, byte order marks, Unicode line breaks or other characters the
/// parser treats specially or refuses; and whether it is all ASCII.
pub(super) fn plain_characters(text: &str) -> Option<bool> {
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Some(true);
    }
    for c in text.chars() {
        let fine = match c {
            ' '..='~' => true,
            '\u{a0}'..='\u{d7ff}' => !matches!(c, '\u{2028}' | '\u{2029}'),
            '\u{e000}'..='\u{fffd}' => c != '\u{feff}',
            '\u{10000}'..='\u{10ffff}' => true,
            _ => false,
        };
        if !fine {
            return None;
        }
    }
    Some(false)
}
