//! Literal (`|`) and folded (`>`) block scalars, their indentation found
//! from their first line.

use super::lines::Line;
use saphyr_parser_bw::{Event, Marker, ScalarStyle, Span};
use std::borrow::Cow;

/// A block scalar being read, a line at a time after its header.
pub(super) struct BlockScalar {
    literal: bool,
    /// `|-` or `>-`: no line break at the end.
    strip: bool,
    /// Its lines must stand right of this column.
    parent: usize,
    /// The column of its lines, from the first one.
    indent: Option<usize>,
    /// Where its first line's text starts, which is where the parser's
    /// span starts.
    start: Option<Marker>,
    value: String,
    /// Empty lines since the last line of text.
    empty: usize,
    /// The last line of text is indented further than the scalar.
    indented: bool,
}

/// What a line does to a block scalar.
pub(super) enum Fed {
    /// It belongs to it.
    Taken,
    /// It ends it, its text starting at this byte.
    Ends(usize),
}

impl BlockScalar {
    /// The scalar whose header (`|`, `|-`, `>` or `>-`, perhaps a comment
    /// after) is at byte `at` of `line`, in a collection at column
    /// `parent`. `None` for the other headers (kept line breaks, explicit
    /// indentation).
    pub(super) fn new(line: &Line<'_>, at: usize, parent: usize) -> Option<BlockScalar> {
        let b = line.text.as_bytes();
        let literal = b.get(at) == Some(&b'|');
        let strip = b.get(at + 1) == Some(&b'-');
        let after = at + 1 + usize::from(strip);
        if line.skip_to_end(after)? != b.len() {
            return None;
        }
        Some(BlockScalar {
            literal,
            strip,
            parent,
            indent: None,
            start: None,
            value: String::new(),
            empty: 0,
            indented: false,
        })
    }

    /// Reads the next line. `None` for what the scanner leaves to the
    /// parser: empty lines before the first line of text, a first line not
    /// right of the collection, and spaces past the scalar's column on an
    /// empty line.
    pub(super) fn feed(&mut self, line: &Line<'_>) -> Option<Fed> {
        let b = line.text.as_bytes();
        let ind = b.iter().take_while(|&&c| c == b' ').count();
        let blank = ind == b.len();
        let Some(n) = self.indent else {
            if blank || ind <= self.parent {
                return None;
            }
            self.indent = Some(ind);
            self.start = Some(line.mark(ind));
            self.value.push_str(line.text.get(ind..)?);
            return Some(Fed::Taken);
        };
        if blank {
            if ind > n {
                return None;
            }
            self.empty += 1;
            return Some(Fed::Taken);
        }
        if ind < n {
            return Some(Fed::Ends(ind));
        }
        let text = line.text.get(n..)?;
        let indented = text.starts_with(' ');
        // A folded scalar joins lines of text with a space, or with the
        // empty lines between them; lines indented further keep their breaks.
        if self.literal || indented || self.indented {
            for _ in 0..=self.empty {
                self.value.push('\n');
            }
        } else if self.empty == 0 {
            self.value.push(' ');
        } else {
            for _ in 0..self.empty {
                self.value.push('\n');
            }
        }
        self.empty = 0;
        self.indented = indented;
        self.value.push_str(text);
        Some(Fed::Taken)
    }

    /// The scalar's event, the next token starting at `end`.
    pub(super) fn finish<'t>(mut self, end: Marker) -> Option<(Event<'t>, Span)> {
        let start = self.start?;
        if !self.strip {
            self.value.push('\n');
        }
        let style = if self.literal {
            ScalarStyle::Literal
        } else {
            ScalarStyle::Folded
        };
        Some((
            Event::Scalar(Cow::Owned(self.value), style, 0, None),
            Span::new(start, end),
        ))
    }
}
